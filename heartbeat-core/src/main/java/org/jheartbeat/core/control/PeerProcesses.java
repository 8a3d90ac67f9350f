package org.jheartbeat.core.control;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * Which process is at the other end of a control connection, for the log line of a served change.
 *
 * <p>Java's {@code SO_PEERCRED} option gives the peer's user and group but drops the process id the
 * kernel also reports. The kernel's socket diagnostics still have it: {@code ss -x -p} (iproute2)
 * lists, for every Unix socket, its inode, its peer's inode and the processes holding it. The rows
 * bound to the control socket's path and held by this daemon are its accepted connections; their
 * peers' rows name the clients. Java does not tell which accepted connection is which, so when the
 * same user has several connections open at once every candidate is named ({@code pid 10 or 12}):
 * each is a process of that user connected to the socket at that moment, which is what an audit
 * needs. Candidates whose {@code /proc/PID} belongs to another user than the one the kernel named are
 * left out.
 */
final class PeerProcesses {
    /** Limit for one {@code ss} run: 2 s (it reads the kernel's tables; it takes milliseconds). */
    static final Duration SS_TIMEOUT = Duration.ofSeconds(2);
    /** One row of {@code ss -x -p -n -H}: local address, local inode, peer address, peer inode, users. */
    private static final Pattern ROW = Pattern.compile(
            "^u_\\w+\\s+\\S+\\s+\\d+\\s+\\d+\\s+(\\S+)\\s+(\\d+)\\s+(\\S+)\\s+(\\d+)\\s*(.*)$");
    private static final Pattern USER = Pattern.compile("\\(\"((?:[^\"\\\\]|\\\\.)*)\",pid=(\\d{1,10}),fd=\\d+\\)");

    /** A process holding a socket: its command name and pid. */
    record Holder(String command, long pid) {
        @Override
        public String toString() {
            return "pid " + pid + " (" + command + ")";
        }
    }

    private final ProcessRunner runner;

    PeerProcesses(ProcessRunner runner) {
        this.runner = runner;
    }

    PeerProcesses() {
        this(new OsProcessRunner());
    }

    /**
     * The clients connected to {@code socketPath} that are held by {@code user}, as {@code ss} shows them.
     *
     * @param socketPath the control socket's path, as bound
     * @param serverPid  this daemon's pid
     * @param user       the user name the kernel gave for the connection
     * @return {@code ", uid 0, pid 12 (hb)"}, {@code ", uid 0, pid 12 (hb) or pid 15 (socat)"}, or {@code ""} when
     *         {@code ss} cannot tell (not installed, no match: the client already left)
     */
    String describe(Path socketPath, long serverPid, String user) {
        try {
            ProcessResult r = runner.run(ProcessSpec.of(SS_TIMEOUT, "ss", "-x", "-p", "-n", "-H"));
            if (r.exitCode() != 0) {
                return "";
            }
            List<Holder> found = new ArrayList<>();
            for (Holder h : clients(r.stdout(), socketPath.toString(), serverPid)) {
                if (ownedBy(h.pid(), user)) {
                    found.add(h);
                }
            }
            return found.isEmpty() ? "" : uid(found.get(0).pid()) + ", "
                    + String.join(" or ", found.stream().map(Holder::toString).toList());
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * The decision, pure: the holders of every socket whose peer is one of {@code serverPid}'s sockets
     * bound to {@code path}.
     *
     * @param ssOutput the text of {@code ss -x -p -n -H}
     * @return each client process once, in the order {@code ss} lists them
     */
    static List<Holder> clients(String ssOutput, String path, long serverPid) {
        Set<String> served = new HashSet<>();
        List<String[]> rows = new ArrayList<>();
        for (String line : ssOutput.split("\n")) {
            Matcher m = ROW.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            String[] row = {m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)};
            rows.add(row);
            if (row[0].equals(path) && holders(row[4]).stream().anyMatch(h -> h.pid() == serverPid)) {
                served.add(row[3]);
            }
        }
        Set<Holder> out = new LinkedHashSet<>();
        for (String[] row : rows) {
            if (served.contains(row[1])) {
                holders(row[4]).stream().filter(h -> h.pid() != serverPid).forEach(out::add);
            }
        }
        return List.copyOf(out);
    }

    /** The {@code users:(("cmd",pid=N,fd=M),…)} column. */
    static List<Holder> holders(String users) {
        List<Holder> out = new ArrayList<>();
        Matcher m = USER.matcher(users);
        while (m.find()) {
            // a command name is whatever the program set (prctl): only printable ASCII reaches the log
            out.add(new Holder(m.group(1).replaceAll("[^\\x21-\\x7e]", "?"), Long.parseLong(m.group(2))));
        }
        return out;
    }

    /** {@code ", uid N"} of the process's owner ({@code /proc/PID}), or nothing when it is gone. */
    private static String uid(long pid) {
        try {
            return ", uid " + Files.getAttribute(Path.of("/proc", Long.toString(pid)), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** Whether {@code /proc/PID} belongs to {@code user} (a name, or a uid when the user database has none). */
    private static boolean ownedBy(long pid, String user) {
        try {
            Path proc = Path.of("/proc", Long.toString(pid));
            return Files.getOwner(proc).getName().equals(user)
                    || String.valueOf(Files.getAttribute(proc, "unix:uid")).equals(user);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
