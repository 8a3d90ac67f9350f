package org.jheartbeat.cli.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * What a console user may do, from the Unix account of the same name, by the control socket's rule
 * ({@code ControlAccess}): root and the members of {@code control: admin_group} act; the members of
 * {@code haclient} read; anyone else is not let in. Groups are the account's primary group ({@code /etc/passwd})
 * and the groups listing it as a member ({@code /etc/group}), read at each login.
 */
public final class Roles {
    /** The group whose members may read the cluster (the control socket's group). */
    public static final String READERS = "haclient";

    private Roles() {
    }

    /** What a logged-in user may do. */
    public enum Role {
        /** Look and act. */
        ADMIN,
        /** Look only. */
        READ
    }

    /**
     * The role of {@code user}, from its groups.
     *
     * @param adminGroup {@code control: admin_group}, if named
     * @return empty when the user is neither root, an admin nor a reader (or has no account)
     */
    public static Optional<Role> of(String user, Optional<String> adminGroup, Path passwd, Path group) {
        if (user.equals("root")) {
            return Optional.of(Role.ADMIN);
        }
        Set<String> groups = groups(user, passwd, group);
        if (adminGroup.isPresent() && groups.contains(adminGroup.get())) {
            return Optional.of(Role.ADMIN);
        }
        return groups.contains(READERS) ? Optional.of(Role.READ) : Optional.empty();
    }

    /**
     * Whether {@code passwd} has an account {@code user}: the logins read the groups from there only (not NSS), so a
     * user without a line can never log in.
     *
     * @return false too when the file cannot be read
     */
    public static boolean hasAccount(String user, Path passwd) {
        try {
            return Files.readAllLines(passwd, StandardCharsets.UTF_8).stream().map(l -> l.split(":", -1))
                    .anyMatch(f -> f.length >= 4 && f[0].equals(user));
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code user}'s group names; none when the account or the files are missing. */
    static Set<String> groups(String user, Path passwd, Path group) {
        Set<String> out = new HashSet<>();
        try {
            String gid = null;
            for (String l : Files.readAllLines(passwd, StandardCharsets.UTF_8)) {
                String[] f = l.split(":", -1);
                if (f.length >= 4 && f[0].equals(user)) {
                    gid = f[3];
                }
            }
            if (gid == null) {
                return out;
            }
            for (String l : Files.readAllLines(group, StandardCharsets.UTF_8)) {
                String[] f = l.split(":", -1);
                if (f.length >= 4 && (f[2].equals(gid) || java.util.Arrays.asList(f[3].split(",")).contains(user))) {
                    out.add(f[0]);
                }
            }
        } catch (IOException e) {
            return Set.of();
        }
        return out;
    }
}
