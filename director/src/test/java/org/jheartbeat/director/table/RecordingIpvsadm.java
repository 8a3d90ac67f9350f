package org.jheartbeat.director.table;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * This kernel has no IPVS, so tests drive a recording stand-in for ipvsadm
 * ({@code ipvsadm-recorder}, Python): it checks each command's syntax against ipvsadm 1.31's man
 * page (facts {@code lvs.md} §4.1), keeps the table in a file, logs every change, and prints
 * {@code -L -n}/{@code -S -n} from the table in ipvsadm's layout.
 */
public final class RecordingIpvsadm {
    private final Path dir;

    /** Installs the recorder as {@code DIR/ipvsadm}. */
    public RecordingIpvsadm(Path dir) throws IOException {
        this.dir = dir;
        try (InputStream in = RecordingIpvsadm.class.getResourceAsStream("/org/jheartbeat/director/ipvsadm-recorder")) {
            Files.copy(in, program(), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.setPosixFilePermissions(program(), PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    public Path program() {
        return dir.resolve("ipvsadm");
    }

    /** The environment that points the recorder at this directory's table, log and failure count. */
    public Map<String, String> env() {
        return Map.of("IPVSADM_STATE", dir.resolve("state.json").toString(), "IPVSADM_LOG",
                dir.resolve("commands.log").toString(), "IPVSADM_FAIL", dir.resolve("fail").toString());
    }

    /** A backend on the recorder. */
    public IpvsadmBackend backend(int attempts) {
        return new IpvsadmBackend(program().toString(), IpvsadmBackend.processes(env()), attempts,
                Duration.ofMillis(20), Duration.ofSeconds(20));
    }

    /** Every table change recorded so far, as {@code ipvsadm ARGS}. */
    public List<String> commands() throws IOException {
        Path log = dir.resolve("commands.log");
        return Files.exists(log) ? Files.readAllLines(log) : new ArrayList<>();
    }

    /** Makes the next {@code n} table changes fail as the kernel would. */
    public void failNext(int n) throws IOException {
        Files.writeString(dir.resolve("fail"), Integer.toString(n));
    }

    /** Runs the recorder directly and returns its stdout. */
    public String run(String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of(program().toString()));
        argv.addAll(List.of(args));
        IpvsadmBackend.Result r = IpvsadmBackend.processes(env()).run(argv, "", Duration.ofSeconds(20));
        if (r.exitCode() != 0) {
            throw new IOException("recorder failed: " + r.stderr());
        }
        return r.stdout();
    }
}
