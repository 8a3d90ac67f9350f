package org.jheartbeat.cli;

import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jheartbeat.cli.command.HandoverRun;
import org.jheartbeat.core.control.ControlRequest;

/**
 * The operator's moves without picocli: {@code hb standby|takeover [all|local|foreign|failback]} and {@code hb
 * failback}, each with at most one {@code --state-dir DIR} ({@code --state-dir=DIR}) and one {@code --timeout S}
 * ({@code --timeout=S}), in any order, run {@link HandoverRun} directly. Beside Pacemaker a planned move is timed
 * from the command's start: picocli's model cost about as much CPU as the rest of the call. Any other shape (help,
 * the version, an unknown set or option, an option twice or without its value, a value starting with {@code -} or
 * {@code @}, {@code --}, a timeout that is not 1..3600 written as plain digits) is left to picocli, whose answer
 * then stands; for these shapes the options mean what {@code StandbyCommand}, {@code TakeoverCommand},
 * {@code FailbackCommand} and {@code StateDirOption} say (same defaults: set all, {@code /var/lib/jheartbeat},
 * 60 s), and errors are mapped by {@link ErrorMapping} as picocli's execution handler maps them. Refers to no
 * picocli type and uses no lambda.
 */
final class DirectHandover {
    /** {@code HandoverCommand}'s default {@code --timeout}, in s. */
    private static final int DEFAULT_TIMEOUT_S = 60;

    private DirectHandover() {
    }

    /** A move as {@link #parse} understands it; {@code set} as the user named it. */
    record Call(String command, ControlRequest.HandoverKind kind, String set, Path stateDir, int timeoutSeconds) {
    }

    /** @return the call, or null if {@code args} are not exactly one of the shapes above */
    static Call parse(String[] args) {
        if (args.length == 0) {
            return null;
        }
        String command = args[0];
        boolean failback = command.equals("failback");
        if (!failback && !command.equals("standby") && !command.equals("takeover")) {
            return null;
        }
        String set = null;
        String dir = null;
        String timeout = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            String next = i + 1 < args.length ? args[i + 1] : null;
            if (a.equals("--state-dir") && dir == null && isValue(next)) {
                dir = args[++i];
            } else if (a.startsWith("--state-dir=") && dir == null && isValue(a.substring("--state-dir=".length()))) {
                dir = a.substring("--state-dir=".length());
            } else if (a.equals("--timeout") && timeout == null && isValue(next)) {
                timeout = args[++i];
            } else if (a.startsWith("--timeout=") && timeout == null) {
                timeout = a.substring("--timeout=".length());
            } else if (!failback && set == null && isSet(a)) {
                set = a;
            } else {
                return null;
            }
        }
        int seconds = timeout == null ? DEFAULT_TIMEOUT_S : seconds(timeout);
        if (seconds < 0) {
            return null;
        }
        Path stateDir;
        try {
            stateDir = Path.of(dir == null ? "/var/lib/jheartbeat" : dir);
        } catch (InvalidPathException e) {
            return null;
        }
        ControlRequest.HandoverKind kind = command.equals("takeover") ? ControlRequest.HandoverKind.TAKEOVER
                : ControlRequest.HandoverKind.STANDBY;
        return new Call(command, kind, failback ? "failback" : set == null ? "all" : set, stateDir, seconds);
    }

    private static boolean isValue(String v) {
        return v != null && !v.isEmpty() && !v.startsWith("-") && !v.startsWith("@");
    }

    private static boolean isSet(String a) {
        return a.equals("all") || a.equals("local") || a.equals("foreign") || a.equals("failback");
    }

    /** @return {@code s} as 1..3600 s written as plain digits (as picocli reads them), else -1 */
    private static int seconds(String s) {
        if (s.isEmpty() || s.length() > 4 || s.charAt(0) < '1' || s.charAt(0) > '9') {
            return -1;
        }
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n <= ControlRequest.MAX_HANDOVER_TIMEOUT_S ? n : -1;
    }

    /**
     * Runs the move until the daemon answers.
     *
     * @return the exit code: {@link HandoverRun}'s, or {@link ErrorMapping}'s for what it threw (message on {@code err})
     */
    static int run(Call call, PrintWriter out, PrintWriter err) {
        try {
            return HandoverRun.run(call.command(), call.kind(), call.set(), call.timeoutSeconds(), call.stateDir(),
                    out, err);
        } catch (Exception e) {
            return ErrorMapping.map(e, err);
        }
    }
}
