package org.jheartbeat.cli;

import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.cli.daemon.Daemon;

/**
 * The daemon's start without picocli: {@code hb daemon [--config-dir DIR] [--state-dir DIR] [--node-name NAME]
 * [--debug]}, each option at most once (the systemd unit's and the init script's lines), runs the {@link Daemon}
 * directly. picocli's classes are compiled for Java 5, which a class-data sharing archive cannot hold: building
 * the daemon command's model from them cost ~110 ms of CPU at every start, before the first beat. Any other
 * shape (help, the version, {@code --self-fence-command}, an {@code @}-file, an option twice or without its
 * value, anything unknown) is left to picocli, whose answer then stands; for these shapes the options mean what
 * {@code DaemonCommand} and its mixins say (same defaults), and errors are mapped by {@link ErrorMapping}
 * as picocli's execution handler ({@link ExceptionMapper}) maps them. Refers to no picocli type.
 */
final class DirectDaemon {
    private DirectDaemon() {
    }

    /** A daemon start as {@link #parse} understands it. */
    record Call(Path configDir, Path stateDir, Optional<String> nodeName, boolean debug) {
    }

    /** @return the call, or null if {@code args} are not exactly one of the shapes above */
    static Call parse(String[] args) {
        if (args.length == 0 || !args[0].equals("daemon")) {
            return null;
        }
        String config = null;
        String state = null;
        String name = null;
        boolean debug = false;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            String next = i + 1 < args.length ? args[i + 1] : null;
            boolean valued = next != null && !next.isEmpty() && !next.startsWith("-") && !next.startsWith("@");
            if (a.equals("--config-dir") && config == null && valued) {
                config = args[++i];
            } else if (a.equals("--state-dir") && state == null && valued) {
                state = args[++i];
            } else if (a.equals("--node-name") && name == null && valued) {
                name = args[++i];
            } else if (a.equals("--debug") && !debug) {
                debug = true;
            } else {
                return null;
            }
        }
        try {
            return new Call(Path.of(config == null ? "/etc/ha.d" : config),
                    Path.of(state == null ? "/var/lib/jheartbeat" : state), Optional.ofNullable(name), debug);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /**
     * Runs the daemon until it stops.
     *
     * @return the exit code: the daemon's, or {@link ErrorMapping}'s for what it threw (message on {@code err})
     */
    static int run(Call call, PrintWriter err) {
        try {
            return new Daemon(new Daemon.Options(call.configDir(), call.stateDir(), call.nodeName(), call.debug(),
                    Optional.empty()), err).run();
        } catch (Exception e) {
            return ErrorMapping.map(e, err);
        }
    }
}
