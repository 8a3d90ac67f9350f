package org.jheartbeat.core.control;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Who may command the daemon. Connecting to the control socket at all takes root or group {@code haclient} (the
 * socket's mode, 0660); {@code haclient} is the group Heartbeat and Pacemaker give to read-only monitoring users,
 * so its members may read (status, cl_status, maintenance status, config digests) but a request that changes what
 * the cluster does ({@link ControlRequest#changesState()}) is served only for root and for members of the admin
 * group named in jheartbeat.yaml ({@code control: admin_group:}), as Pacemaker's ACLs keep {@code haclient} read-only
 * unless granted more.
 *
 * <p>The caller is who the kernel says connected ({@code SO_PEERCRED}): its user and primary group; supplementary
 * groups come from the group database ({@code /etc/group}).
 *
 * @param adminGroup   the group whose members may change state besides root; empty: root only
 * @param groupMembers a group's member user names from the group database (an unknown group: none)
 */
public record ControlAccess(Optional<String> adminGroup, Function<String, Set<String>> groupMembers) {
    /** Root only, no group database needed. */
    public static final ControlAccess ROOT_ONLY = new ControlAccess(Optional.empty(), g -> Set.of());

    public ControlAccess {
        Objects.requireNonNull(adminGroup, "adminGroup");
        Objects.requireNonNull(groupMembers, "groupMembers");
    }

    /**
     * Root, plus the members of {@code adminGroup} as {@code /etc/group} lists them, read at each decision (so a
     * user added to the group is allowed without a restart).
     */
    public static ControlAccess withAdminGroup(Optional<String> adminGroup) {
        return new ControlAccess(adminGroup, g -> members(Path.of("/etc/group"), g));
    }

    /**
     * Who connected.
     *
     * @param user  the user name (or the numeric uid when the user database has no name for it)
     * @param group the primary group name (or numeric gid)
     */
    public record Caller(String user, String group) {
        /** Root as the kernel names it. */
        public boolean root() {
            return user.equals("root") || user.equals("0");
        }

        @Override
        public String toString() {
            return "user " + user + " (group " + group + ")";
        }
    }

    /**
     * Whether {@code caller} may send {@code request}.
     *
     * @return empty when allowed; else the refusal: what was asked, by whom, and who may
     */
    public Optional<String> refusal(Caller caller, ControlRequest request) {
        if (!request.changesState() || caller.root()) {
            return Optional.empty();
        }
        if (adminGroup.isPresent() && (caller.group().equals(adminGroup.get())
                || groupMembers.apply(adminGroup.get()).contains(caller.user()))) {
            return Optional.empty();
        }
        return Optional.of("'" + request.toWire() + "' changes the cluster and " + caller + " may only read; run it"
                + " as root" + adminGroup.map(g -> " or as a member of group " + g).orElse(", or name an admin group"
                + " in jheartbeat.yaml (control: admin_group: GROUP)"));
    }

    /** Members of {@code group} in a group file ({@code name:x:gid:user,user}); none when absent or unreadable. */
    static Set<String> members(Path groupFile, String group) {
        try {
            for (String line : Files.readAllLines(groupFile, StandardCharsets.UTF_8)) {
                String[] f = line.split(":", -1);
                if (f.length >= 4 && f[0].equals(group)) {
                    return f[3].isEmpty() ? Set.of() : Set.copyOf(Arrays.asList(f[3].split(",")));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Set.of();
        }
        return Set.of();
    }
}
