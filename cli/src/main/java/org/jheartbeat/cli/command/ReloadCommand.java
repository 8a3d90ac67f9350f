package org.jheartbeat.cli.command;

import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code hb reload}: the running daemon re-reads its config directory and applies what it can live
 * (the same as SIGHUP and {@code systemctl reload jheartbeat}): resource groups added
 * to or removed from haresources, ha.cf timings, authkeys. Prints one line per change, saying which
 * need a restart. An invalid configuration prints the config check's {@code file:line} messages,
 * applies nothing and exits 2. The daemon reads the directory it was started with.
 */
@Command(name = "reload", mixinStandardHelpOptions = true,
        description = {"Make the running daemon re-read its configuration (as SIGHUP does) and apply what can be"
                + " applied live: resource groups added to or removed from haresources (a new group starts on its"
                + " node, a removed one stops, the others are not touched), keepalive/deadtime/warntime/initdead,"
                + " authkeys. Prints one line per change; changes that need a restart (nodes, media, udpport,"
                + " logging, STONITH, auto_failback, a changed group) are listed and not applied."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:reloaded (or nothing changed)", "1:failed", "2:invalid configuration, nothing applied"
                + " (each problem printed as file:line: message)", "3:no daemon running", "4:permission denied",
            "64:usage error", "75:refused: resource groups stayed in flux; nothing applied, try again"})
public final class ReloadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StateDirOption stateDir;

    @Override
    public Integer call() throws Exception {
        ControlResponse r = ControlClient.request(new StateDirectory(stateDir.path()).controlSocket(),
                new ControlRequest.Reload());
        if (r.refused()) {
            throw new UserException(ExitCodes.REFUSED, "reload refused: " + r.error());
        }
        if (!r.ok()) {
            spec.commandLine().getErr().print(r.body());
            spec.commandLine().getErr().flush();
            throw new UserException(r.error().startsWith("configuration errors") ? ExitCodes.CONFIG
                    : ExitCodes.FAILURE, "reload: " + r.error());
        }
        spec.commandLine().getOut().print(r.body());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
