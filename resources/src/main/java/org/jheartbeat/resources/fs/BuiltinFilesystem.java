package org.jheartbeat.resources.fs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.OperationTimeouts;

/**
 * The built-in {@code Filesystem::DEVICE::DIRECTORY[::FSTYPE[::OPTIONS]]} of haresources, Heartbeat
 * 3.0.6's {@code resource.d/Filesystem} form, run by the OCF {@code ocf:heartbeat:Filesystem} agent of
 * resource-agents (as Heartbeat's own script does): it checks the device and runs fsck where the
 * file system needs it, refuses to mount what is mounted elsewhere, kills the users of the mount point
 * before the umount and retries it. The resource then behaves as an OCF resource: OCF exit codes,
 * monitored, and a stop that fails blocks its group. Used when no script named {@code Filesystem}
 * exists in {@code resource.d} (an admin's own script keeps Heartbeat's rules).
 */
public final class BuiltinFilesystem {
    /** The haresources name. */
    public static final String NAME = "Filesystem";

    private BuiltinFilesystem() {
    }

    /**
     * The OCF resource for Heartbeat's positional arguments.
     *
     * @param args DEVICE, DIRECTORY, then optionally FSTYPE and mount OPTIONS, as Heartbeat's script takes them
     * @return {@code ocf:heartbeat:Filesystem} with {@code device}, {@code directory}, {@code fstype},
     *         {@code options}; empty when fewer than two or more than four arguments are given
     */
    public static Optional<AgentRef.Ocf> asOcf(List<String> args) {
        if (args.size() < 2 || args.size() > 4 || args.get(0).isEmpty() || args.get(1).isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> params = new LinkedHashMap<>();
        params.put("device", args.get(0));
        params.put("directory", args.get(1));
        if (args.size() > 2 && !args.get(2).isEmpty()) {
            params.put("fstype", args.get(2));
        }
        if (args.size() > 3 && !args.get(3).isEmpty()) {
            params.put("options", args.get(3));
        }
        return Optional.of(new AgentRef.Ocf("heartbeat", "Filesystem", params, OperationTimeouts.NONE));
    }

    /** The message for arguments {@link #asOcf} refuses, naming the token. */
    public static String usage(String token) {
        return "Filesystem takes DEVICE::DIRECTORY[::FSTYPE[::OPTIONS]], [" + token + "] does not; write e.g."
                + " Filesystem::/dev/sdb1::/srv/web::ext4";
    }
}
