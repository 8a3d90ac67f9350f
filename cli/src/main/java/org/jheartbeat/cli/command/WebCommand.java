package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.ZoneId;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.config.JheartbeatYaml;
import org.jheartbeat.cli.config.WebYaml;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.metrics.MetricsTls;
import org.jheartbeat.cli.runtime.SshTransport;
import org.jheartbeat.cli.web.Console;
import org.jheartbeat.cli.web.Roles;
import org.jheartbeat.cli.web.Sessions;
import org.jheartbeat.cli.web.Snapshot;
import org.jheartbeat.cli.web.Sources;
import org.jheartbeat.cli.web.WebServer;
import org.jheartbeat.cli.web.WebUsers;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.time.WallClocks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code hb web}: the web console, a process of its own (unit {@code jheartbeat-web.service}), so that nothing it
 * does can delay a beat. It listens where jheartbeat.yaml {@code web: listen:} says for this node (default
 * 127.0.0.1:8480), over TLS with {@code tls_cert_file}/{@code tls_key_file}; it asks the local daemon through the
 * control socket every {@link #POLL_MS} and pushes a refresh to open pages when something changed, and fetches the
 * peer's journal over ssh every few seconds. {@code hb web user add NAME} sets a console password.
 */
@Command(name = "web", mixinStandardHelpOptions = true, subcommands = {WebCommand.User.class},
        description = {"Serve the web console: the cluster at a glance, the timeline of both nodes' journals with"
                + " failovers drawn as spans, the director, and actions (standby, takeover, failback, cleanup,"
                + " maintenance) for root and the admin group; haclient members may read. Runs until stopped.",
            "Listens on jheartbeat.yaml web: listen: (default 127.0.0.1:8480); TLS with web: tls_cert_file: and"
                + " tls_key_file:. Passwords: hb web user add NAME."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "1:cannot listen", "2:configuration error (jheartbeat.yaml, TLS files)",
            "64:usage error"})
public final class WebCommand implements Callable<Integer> {
    /** How often the local daemon is asked, in ms. */
    static final long POLL_MS = 2_000;

    @Spec
    CommandSpec spec;

    @Mixin
    ConfigDirOption configDir;

    @Mixin
    StateDirOption stateDir;

    @Mixin
    NodeNameOption nodeName;

    @Option(names = "--listen", paramLabel = "ADDRESS:PORT",
            description = "Listen here instead of jheartbeat.yaml's web: listen: (loopback only without TLS).")
    String listen;

    @Mixin
    PeerSshOptions peerSsh;

    @Option(names = "--director-config", paramLabel = "FILE",
            description = "The director's ldirectord.cf, to find its socket; a bare name is looked up in --config-dir,"
                    + " then its conf/, then the current directory (default: ldirectord.cf, when present).")
    String directorConfig;

    @Option(names = "--users-file", paramLabel = "FILE",
            description = "The users file, an absolute path (default: web: users_file: of jheartbeat.yaml, else"
                    + " web-users in --config-dir: /etc/ha.d/web-users).")
    Path usersFile;

    @Option(names = "--etc", paramLabel = "DIR", defaultValue = "/etc", hidden = true,
            description = "Where passwd and group are read (tests).")
    Path etc;

    @Override
    public Integer call() throws Exception {
        absolute(usersFile, "web");
        Path dir = configDir.path();
        Optional<ClusterConfig> cluster = ConfigLoader.load(dir, Optional.empty()).config();
        WebYaml web = WebYaml.load(dir, cluster);
        JheartbeatYaml yaml = JheartbeatYaml.load(dir, cluster);
        NodeName me = nodeName.value().map(NodeName::of).orElseGet(ConfigCommand::thisNode);
        InetSocketAddress at = listen != null ? address(listen) : web.listen(me);
        Optional<io.netty.handler.ssl.SslContext> tls = Optional.empty();
        if (web.tls().isPresent()) {
            try {
                tls = Optional.of(MetricsTls.load(web.tls().get().certFile(), web.tls().get().keyFile()));
            } catch (MetricsTls.Refused e) {
                throw new UserException(ExitCodes.CONFIG, "web: " + e.getMessage());
            }
        } else if (!at.getAddress().isLoopbackAddress()) {
            throw new UserException(ExitCodes.USAGE, "web: --listen " + at.getAddress().getHostAddress() + ":"
                    + at.getPort() + " is not a loopback address and jheartbeat.yaml"
                    + " gives no web: tls_cert_file:/tls_key_file: (the .deb made /var/lib/jheartbeat/web.crt and"
                    + " web.key); listen on 127.0.0.1 or give the TLS files");
        }
        Path daemonSocket = new StateDirectory(stateDir.path()).controlSocket();
        Optional<Path> director = directorSocket(directorConfig, dir);
        java.time.Clock clock = WallClocks.system();
        Sources sources = new Sources(new Sources.Settings(daemonSocket, director, SshTransport.split(peerSsh.ssh),
                Optional.ofNullable(peerSsh.peer), peerSsh.remoteHb), clock);
        PrintWriter err = spec.commandLine().getErr();
        java.util.function.Consumer<String> log = line -> {
            synchronized (err) {
                err.println(java.time.Instant.ofEpochMilli(clock.millis()) + " " + line);
                err.flush();
            }
        };
        java.util.concurrent.atomic.AtomicReference<Snapshot> current = new java.util.concurrent.atomic.AtomicReference<>(
                sources.take());
        ScheduledExecutorService poll = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hb-web-poll");
            t.setDaemon(true);
            return t;
        });
        // the peer's ssh (up to 15 s when it is down) on its own thread: it never holds up the local view
        ScheduledExecutorService peerPoll = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hb-web-peer");
            t.setDaemon(true);
            return t;
        });
        java.util.concurrent.atomic.AtomicReference<WebServer> server = new java.util.concurrent.atomic.AtomicReference<>();
        Runnable refresh = () -> {
            Snapshot s = sources.take();
            Snapshot old = current.getAndSet(s);
            if (server.get() != null && !old.fingerprint().equals(s.fingerprint())) {
                server.get().changed(s.fingerprint());
            }
        };
        Console console = new Console(new Console.Settings(usersFile != null ? usersFile
                : web.usersFile(), yaml.adminGroup(), etc.resolve("passwd"),
                etc.resolve("group"), ZoneId.systemDefault()), new Sessions(clock, new SecureRandom()), current::get,
                r -> ControlClient.request(daemonSocket, r), log, () -> poll.execute(guarded(refresh, log)));
        try {
            server.set(WebServer.start(at, tls, console));
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "web: cannot listen on " + at + ": " + e.getMessage()
                    + "; choose a free port of an address of this machine (web: listen:)");
        }
        poll.scheduleWithFixedDelay(guarded(refresh, log), POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
        peerPoll.scheduleWithFixedDelay(guarded(sources::fetchPeer, log), 0, Sources.PEER_EVERY_MS, TimeUnit.MILLISECONDS);
        log.accept("web: console of " + me + " on " + (tls.isPresent() ? "https" : "http") + "://"
                + at.getAddress().getHostAddress() + ":" + server.get().port() + "/");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.get().close();
            poll.shutdownNow();
            peerPoll.shutdownNow();
        }, "hb-web-stop"));
        Thread.currentThread().join(); // until stopped (SIGTERM runs the hook)
        return ExitCodes.OK;
    }

    /** {@code task}, logging what it throws instead of ending its schedule (a scheduled task that throws never runs again). */
    private static Runnable guarded(Runnable task, java.util.function.Consumer<String> log) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.accept("web: internal error, going on: " + e);
            }
        };
    }

    /**
     * The director's control socket: {@code --director-config} as given, else {@code ldirectord.cf} when one is found
     * in {@code configDir} (then {@code configDir/conf}, then the current directory, as ldirectord looks in /etc/ha.d).
     */
    static Optional<Path> directorSocket(String directorConfig, Path configDir) {
        Path cf = LvsCommand.resolveConfig(directorConfig, configDir);
        return directorConfig != null || Files.exists(cf) ? Optional.of(LvsCommand.socketFor(cf)) : Optional.empty();
    }

    /**
     * Refuses a relative {@code --users-file} as {@code web: users_file:} does: the service's working directory is not
     * the one it was written from, so a relative file would be another one.
     *
     * @throws UserException exit 64
     */
    static void absolute(Path usersFile, String command) throws UserException {
        if (usersFile != null && !usersFile.isAbsolute()) {
            throw new UserException(ExitCodes.USAGE, command + ": --users-file " + usersFile + " is not an absolute path;"
                    + " give one, e.g. --users-file " + WebYaml.DEFAULT_USERS);
        }
    }

    private static InetSocketAddress address(String text) throws UserException {
        int colon = text.lastIndexOf(':');
        try {
            String host = text.substring(0, colon).replace("[", "").replace("]", "");
            if (!host.matches("[0-9.]+|[0-9a-fA-F:]+")) {
                throw new IllegalArgumentException(host);
            }
            return new InetSocketAddress(java.net.InetAddress.getByName(host), Integer.parseInt(text.substring(colon + 1)));
        } catch (IOException | RuntimeException e) {
            throw new UserException(ExitCodes.USAGE, "web: --listen " + text + " is not ADDRESS:PORT (an IP address);"
                    + " e.g. --listen 127.0.0.1:8480");
        }
    }

    /** {@code hb web user add NAME}: sets NAME's console password, read from standard input (one line). */
    @Command(name = "user", mixinStandardHelpOptions = true, subcommands = {User.Add.class},
            description = "Manage the console's users (their passwords; what they may do comes from their Unix groups).")
    public static final class User implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().usage(spec.commandLine().getErr());
            return ExitCodes.USAGE;
        }

        /** Adds a user or replaces its password. */
        @Command(name = "add", mixinStandardHelpOptions = true,
                description = {"Set the console password of user NAME, read from standard input (one line), stored as"
                        + " a PBKDF2-SHA256 hash in the users file (mode 0600). NAME logs in with the rights of the Unix"
                        + " account NAME: root and the admin group act, haclient members read."},
                exitCodeListHeading = "%nExit codes:%n",
                exitCodeList = {"0:set", "1:the file cannot be written", "2:configuration error",
                    "64:usage error (NAME is not an account of /etc/passwd, a short password, a relative --users-file)"})
        public static final class Add implements Callable<Integer> {
            @Spec
            CommandSpec spec;

            @Mixin
            ConfigDirOption configDir;

            @Parameters(index = "0", paramLabel = "NAME", description = "The user (a Unix account name).")
            String name;

            @Option(names = "--users-file", paramLabel = "FILE", description = "The users file, an absolute path"
                    + " (default: web: users_file: of jheartbeat.yaml, else web-users in --config-dir: /etc/ha.d/web-users).")
            Path usersFile;

            @Option(names = "--etc", paramLabel = "DIR", defaultValue = "/etc", hidden = true,
                    description = "Where passwd and group are read (tests).")
            Path etc;

            @Override
            public Integer call() throws Exception {
                absolute(usersFile, "web user add");
                if (!WebUsers.validName(name)) {
                    throw new UserException(ExitCodes.USAGE, "web user add: [" + name + "] is not a user name; give the"
                            + " name of a Unix account (lower case letters, digits, _ and -)");
                }
                // the login takes the role from this account: without one the password could never be used
                Path passwd = etc.resolve("passwd");
                if (!Roles.hasAccount(name, passwd)) {
                    throw new UserException(ExitCodes.USAGE, "web user add: " + name + " is not an account of " + passwd
                            + ", so it could never log in (the console's rights are the Unix account's); give an"
                            + " existing account's name, or create it first (useradd -G haclient " + name + ")");
                }
                Path file = usersFile != null ? usersFile : WebYaml.load(configDir.path(), Optional.empty()).usersFile();
                Optional<String> admins = JheartbeatYaml.load(configDir.path(), Optional.empty()).adminGroup();
                byte[] in = System.in.readNBytes(4096);
                String text = new String(in, StandardCharsets.UTF_8);
                String password = text.lines().findFirst().orElse("");
                if (password.length() < 8) {
                    throw new UserException(ExitCodes.USAGE, "web user add: the password on standard input is shorter"
                            + " than 8 characters; give a longer one (echo 'PASSWORD' | hb web user add " + name + ")");
                }
                try {
                    WebUsers.put(file, name, password.toCharArray(), new SecureRandom());
                } catch (IOException e) {
                    throw new UserException(ExitCodes.FAILURE, "web user add: cannot write " + file + ": "
                            + e.getMessage() + "; run as root");
                }
                spec.commandLine().getOut().println("set the console password of " + name + " in " + file);
                if (Roles.of(name, admins, passwd, etc.resolve("group")).isEmpty()) {
                    spec.commandLine().getErr().println("web user add: warning: " + name + " is neither root, in the"
                            + " admin group" + admins.map(g -> " " + g).orElse("") + " nor in group " + Roles.READERS
                            + ", so it cannot log in yet; add it to one (usermod -aG " + Roles.READERS + " " + name + ")");
                }
                return ExitCodes.OK;
            }
        }
    }
}
