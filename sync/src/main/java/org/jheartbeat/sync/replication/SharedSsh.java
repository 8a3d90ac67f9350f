package org.jheartbeat.sync.replication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ssh connection for all the rsyncs of a peer run, through OpenSSH connection sharing
 * (ssh_config(5): {@code ControlMaster}, {@code ControlPath}, {@code ControlPersist}). The replica
 * stamp's rsync ({@link StampSender}), started first, runs the master ({@link #masterSsh}); once its
 * socket is there ({@link #awaitMaster}) the copies' ssh open their sessions through it
 * ({@link #clientSsh}): one key exchange, sshd login and TCP connection per run instead of two.
 *
 * <p>The master's life is the stamp rsync's: {@code ControlPersist=no} keeps it in the foreground,
 * a child of that rsync, so it ends when the rsync ends (stamp sent, empty list, or killed with the
 * run) and no copy session is open. The socket is in a directory made for the run, mode 0700,
 * {@code <state_dir>/ssh-<job>@<random>/m}, removed by {@link #close}; one left by a killed process
 * is removed by the job's next run (the job's lock makes it the only run of that job).
 *
 * <p>The options go right after the command's {@code ssh} word, before the admin's own: ssh keeps
 * the first value of an option (command line first, then the config files; ssh(1), ssh_config(5)),
 * so an admin's {@code -o ControlPath=…} or a config file's {@code ControlPersist} cannot keep the
 * master alive after the run or put the socket elsewhere. A copy's ssh that cannot reach the socket
 * (master not up, gone, or a peer's {@code MaxSessions} refusing the session) connects on its own
 * ({@code ControlMaster=no}; OpenSSH mux.c falls back to a direct connection), as without sharing.
 * No sharing (the run behaves as before it existed) when the command has no word {@code ssh} (a
 * wrapper program), when the admin's command has its own {@code -M} or {@code -S} (flags that would
 * override ours), or when the socket's path would be too long for a Unix socket or holds
 * characters ssh would expand.
 */
final class SharedSsh implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("sync");
    /**
     * Longest socket path, in bytes: {@code sun_path} holds 108 with its NUL, and the master binds
     * {@code PATH.XXXXXXXXXXXXXXXX} (17 more) before linking it to PATH (OpenSSH mux.c).
     */
    static final int MAX_SOCKET_BYTES = 90;
    /** ssh(1) flags that take an argument (OpenSSH 9.x getopt string). */
    private static final String FLAGS_WITH_ARGUMENT = "BbcDEeFIiJLlmOoPpQRSWw";
    /** How long one wait for the socket lasts at most, in ms; {@link #awaitMaster} counts them. */
    static final long POLL_MS = 50;

    private final Path dir;
    private final Path socket;
    private final List<String> master;
    private final List<String> client;

    private SharedSsh(Path dir, List<String> ssh, int sshWord) {
        this.dir = dir;
        this.socket = dir.resolve("m");
        this.master = insert(ssh, sshWord, masterOptions(socket));
        this.client = insert(ssh, sshWord, clientOptions(socket));
    }

    /**
     * Makes the run's socket directory, after removing any the job's earlier runs left behind.
     *
     * @param ssh      the admin's remote-shell argv ({@code sync.yaml ssh})
     * @param stateDir the state directory (exists)
     * @param job      the job's name ({@code [A-Za-z0-9_.-]+})
     * @return the sharing, or empty when the command cannot share (see the class comment)
     * @throws IOException if the directory cannot be made
     */
    static Optional<SharedSsh> open(List<String> ssh, Path stateDir, String job) throws IOException {
        OptionalInt word = sshWord(ssh);
        Path dir = stateDir.toAbsolutePath().normalize();
        // the longest name Files.createTempDirectory makes: prefix + an unsigned long
        if (word.isEmpty() || !usableSocket(dir.resolve("ssh-" + job + "@" + "9".repeat(20)).resolve("m"))) {
            return Optional.empty();
        }
        String prefix = "ssh-" + job + "@";
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, p -> p.getFileName().toString().startsWith(prefix))) {
            for (Path p : old) {
                deleteTree(p);
            }
        }
        Path made = Files.createTempDirectory(dir, prefix,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        return Optional.of(new SharedSsh(made, ssh, word.getAsInt()));
    }

    /** @return the remote shell of the rsync whose ssh is the master */
    List<String> masterSsh() {
        return master;
    }

    /** @return the remote shell of the rsyncs that use the master's connection */
    List<String> clientSsh() {
        return client;
    }

    /** @return the master's socket */
    Path socket() {
        return socket;
    }

    /**
     * Waits until the master's socket exists (ssh links it into place once the connection is
     * authenticated, so it appears ready), the master's process ended, or {@code polls} waits of
     * {@value #POLL_MS} ms passed (a bound that only catches a hang: a copy then connects on its own).
     *
     * @param masterEnded whether the process that runs the master ended
     * @param polls       how many waits at most
     * @return whether the socket is there
     * @throws InterruptedException if interrupted while waiting
     * @throws IOException if the directory cannot be watched
     */
    boolean awaitMaster(BooleanSupplier masterEnded, int polls) throws InterruptedException, IOException {
        try (WatchService watch = dir.getFileSystem().newWatchService()) {
            dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
            for (int i = 0; i < polls; i++) {
                if (Files.exists(socket)) {
                    return true;
                }
                if (masterEnded.getAsBoolean()) {
                    return false;
                }
                WatchKey key = watch.poll(POLL_MS, TimeUnit.MILLISECONDS);
                if (key != null) {
                    key.pollEvents();
                    key.reset();
                }
            }
            return Files.exists(socket);
        }
    }

    /** Removes the socket's directory and what is in it (the socket of a killed master). */
    @Override
    public void close() {
        try {
            deleteTree(dir);
        } catch (IOException e) {
            LOG.warn("cannot remove the ssh socket directory {}: {}", dir, e.getMessage());
        }
    }

    /**
     * Where the sharing options go: after the first word whose file name is {@code ssh}, unless the
     * words after it set {@code -M} or {@code -S} themselves (ssh applies those flags after every
     * {@code -o}, whatever their order).
     *
     * @param ssh the remote-shell argv
     * @return the index of the {@code ssh} word, or empty when sharing is not possible
     */
    static OptionalInt sshWord(List<String> ssh) {
        int at = -1;
        for (int i = 0; i < ssh.size() && at < 0; i++) {
            String w = ssh.get(i);
            if (w.substring(w.lastIndexOf('/') + 1).equals("ssh")) {
                at = i;
            }
        }
        if (at < 0) {
            return OptionalInt.empty();
        }
        for (int i = at + 1; i < ssh.size(); i++) {
            String w = ssh.get(i);
            if (!w.startsWith("-") || w.equals("-") || w.equals("--")) {
                break;
            }
            for (int c = 1; c < w.length(); c++) {
                char f = w.charAt(c);
                if (f == 'M' || f == 'S') {
                    return OptionalInt.empty();
                }
                if (FLAGS_WITH_ARGUMENT.indexOf(f) >= 0) {
                    i += c == w.length() - 1 ? 1 : 0; // "-o X" rather than "-oX": skip X
                    break;
                }
            }
        }
        return OptionalInt.of(at);
    }

    /**
     * Whether ssh can use {@code socket} as its {@code ControlPath} as written: short enough
     * ({@value #MAX_SOCKET_BYTES} bytes), absolute, and only characters that ssh neither expands
     * ({@code %} tokens, {@code ~}, {@code $} variables) nor splits (blanks, quotes).
     *
     * @param socket the socket's path
     * @return whether it can be used
     */
    static boolean usableSocket(Path socket) {
        String s = socket.toString();
        return socket.isAbsolute() && s.getBytes(StandardCharsets.UTF_8).length <= MAX_SOCKET_BYTES
                && s.matches("[A-Za-z0-9/_.@+,=-]+");
    }

    /** Options of the master: in the foreground, ended with its session, at our socket. */
    static List<String> masterOptions(Path socket) {
        return List.of("-o", "ControlMaster=yes", "-o", "ControlPath=" + socket, "-o", "ControlPersist=no");
    }

    /** Options of a copy: through the socket when it answers, on its own connection otherwise. */
    static List<String> clientOptions(Path socket) {
        return List.of("-o", "ControlMaster=no", "-o", "ControlPath=" + socket);
    }

    static List<String> insert(List<String> ssh, int sshWord, List<String> options) {
        List<String> out = new ArrayList<>(ssh.subList(0, sshWord + 1));
        out.addAll(options);
        out.addAll(ssh.subList(sshWord + 1, ssh.size()));
        return List.copyOf(out);
    }

    private static void deleteTree(Path top) throws IOException {
        if (!Files.exists(top, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(top)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
