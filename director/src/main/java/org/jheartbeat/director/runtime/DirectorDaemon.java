package org.jheartbeat.director.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.LdirectordParser;
import org.jheartbeat.director.table.BackendException;
import org.jheartbeat.director.table.IpvsadmText;
import org.jheartbeat.director.table.ListView;
import org.jheartbeat.director.table.TableBackend;
import org.jheartbeat.director.table.TableSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running director for one ldirectord.cf: the {@link Director}, its control socket, and
 * {@code autoreload} (the file's MD5 compared every global {@code checkinterval}, as ldirectord
 * 4.x; on a change {@code callback CONFIG} runs and a valid file is applied; an invalid one is
 * logged at file:line and the running config kept).
 */
public final class DirectorDaemon implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("org.jheartbeat.director");

    private final Path configFile;
    private final LdirectordParser parser;
    private final Director director;
    private final ControlSocket control;
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "lvs-autoreload");
        t.setDaemon(true);
        return t;
    });
    private final TableBackend backend;
    private volatile String digest;
    private volatile boolean started;
    /** The connection sync as read at start (a reload does not change it: it follows the takeover). */
    private java.util.Optional<org.jheartbeat.director.config.SyncSettings> sync = java.util.Optional.empty();

    /**
     * Starts everything.
     *
     * @param config   the config, already read without errors
     * @param backend  the table backend
     * @param checks   the check factory
     * @param socket   the control socket's path
     * @param listener sees every action of the director (tests; may do nothing)
     * @throws BackendException if the table cannot be read at start
     * @throws IOException      if the control socket cannot be bound
     */
    public DirectorDaemon(LdirectordConfig config, TableBackend backend, CheckFactory checks, Path socket,
            Consumer<DirectorAction> listener) throws BackendException, IOException, InterruptedException {
        this.configFile = config.file();
        this.parser = new LdirectordParser();
        this.digest = md5(configFile);
        this.director = new Director(backend, checks, MonotonicClock.system(), listener);
        this.backend = backend;
        // the socket first: if it cannot be bound, nothing has touched the table yet
        this.control = new ControlSocket(socket, this::handle);
        try {
            director.start(config);
        } catch (BackendException | InterruptedException | RuntimeException e) {
            control.close();
            director.close();
            throw e;
        }
        started = true;
        this.sync = config.globals().sync();
        if (sync.isPresent()) {
            try {
                backend.syncActive(sync.get());
            } catch (BackendException e) {
                LOG.error("Connection sync not started on {}: {}", sync.get().iface(), e.getMessage());
            }
        }
        if (config.globals().autoReload()) {
            long every = Math.max(1, config.globals().checkInterval().toMillis());
            watcher.scheduleWithFixedDelay(this::autoReload, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /** The director (status, figures). */
    public Director director() {
        return director;
    }

    /**
     * Re-reads the file and applies it if valid.
     *
     * @return the problems found (errors mean the running config was kept)
     */
    public List<ConfigDiagnostic> reload() throws InterruptedException {
        LdirectordParser.Result parsed = parser.parse(configFile);
        // its commands run as root: a file others may write is refused at reload as at start
        List<ConfigDiagnostic> root = org.jheartbeat.core.config.RootFiles.check(configFile, "ldirectord.cf");
        LdirectordParser.Result r = root.stream().anyMatch(ConfigDiagnostic::isError)
                ? new LdirectordParser.Result(java.util.Optional.empty(), java.util.stream.Stream.concat(
                        root.stream(), parsed.diagnostics().stream()).toList())
                : parsed;
        r.diagnostics().forEach(d -> (d.isError() ? (Consumer<String>) LOG::error : (Consumer<String>) LOG::warn)
                .accept(d.format()));
        if (r.config().isEmpty()) {
            LOG.error("Reload of {} refused: the running configuration is kept", configFile);
            return r.diagnostics();
        }
        digest = md5(configFile);
        director.reload(r.config().get());
        return r.diagnostics();
    }

    private void autoReload() {
        try {
            String now = md5(configFile);
            if (now.equals(digest)) {
                return;
            }
            LOG.info("Configuration file {} has changed on disk", configFile);
            digest = now;
            director.config().globals().callback().ifPresent(cb ->
                    Programs.start(List.of(cb, configFile.toString())));
            reload();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("autoreload of {} failed: {}", configFile, e.toString());
        }
    }

    private static String md5(Path file) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(Files.readAllBytes(file)));
        } catch (IOException e) {
            return "unreadable";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Answers one control request. */
    private String handle(String line) {
        if (!started) {
            return "ERR the director is starting, try again";
        }
        String[] w = line.split("\\s+");
        try {
            switch (w[0]) {
                case "ping":
                    return "OK\n";
                case "reload": {
                    List<ConfigDiagnostic> d = reload();
                    StringBuilder sb = new StringBuilder(d.stream().anyMatch(ConfigDiagnostic::isError)
                            ? "ERR configuration refused, the running one is kept\n" : "OK\n");
                    d.forEach(x -> sb.append(x.format()).append('\n'));
                    return sb.toString();
                }
                case "status": {
                    ListView view = w.length < 2 ? ListView.DEFAULT : switch (w[1]) {
                        case "DEFAULT" -> ListView.DEFAULT;
                        case "STATS" -> ListView.STATS;
                        case "RATE" -> ListView.RATE;
                        default -> throw new IllegalArgumentException("unknown view '" + w[1] + "'");
                    };
                    boolean conn = w.length > 2 && w[2].equals("1");
                    boolean json = w.length > 3 && w[3].equals("json");
                    TableSnapshot t = director.status(view, conn);
                    // the user-space data path's bounds beside its figures (ipvsadm has no such line)
                    String bounds = view == ListView.STATS && !conn && !json
                            ? backend.dataPath().map(l -> l + "\n").orElse("") : "";
                    return "OK\n" + render(t, view, conn, json) + bounds;
                }
                default:
                    return "ERR unknown request '" + w[0] + "'";
            }
        } catch (BackendException e) {
            return "ERR " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "ERR interrupted";
        } catch (IllegalArgumentException e) {
            return "ERR bad request: " + e.getMessage();
        }
    }

    /** The status text: {@code -L -n} in the view, or {@code -c}, or JSON. */
    public static String render(TableSnapshot t, ListView view, boolean connections, boolean json) {
        if (json) {
            return IpvsadmText.json(t);
        }
        return connections ? IpvsadmText.connections(t) : IpvsadmText.list(t, view);
    }

    @Override
    public void close() throws InterruptedException {
        watcher.shutdownNow();
        control.close();
        director.close();
        if (sync.isPresent()) {
            try {
                backend.syncStandby(sync.get());
            } catch (BackendException e) {
                LOG.error("Connection sync: standby role not taken on {}: {}", sync.get().iface(), e.getMessage());
            }
        }
    }
}
