package org.jheartbeat.cli.report;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * The report's archives through the system's GNU tar (Debian's {@code tar} is essential, so every node has it):
 * create a {@code .tar.gz} of one directory, list one, extract one that came from the peer.
 */
public final class TarFiles {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private final OsProcessRunner runner;

    /** @param runner runs tar (its output limit holds a part's file list) */
    public TarFiles(OsProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * Writes {@code dest}, a gzip'd tar of {@code parent/name} whose entries start with {@code name/}.
     *
     * @throws IOException when tar cannot run or fails (its message)
     */
    public void create(Path parent, String name, Path dest) throws IOException {
        run(List.of("tar", "--create", "--gzip", "--file", dest.toString(), "--owner=0", "--group=0",
                "--directory", parent.toString(), "--", name));
    }

    /** The entry names of the gzip'd tar {@code archive}. */
    public List<String> list(Path archive) throws IOException {
        return run(List.of("tar", "--list", "--gzip", "--file", archive.toString())).lines().toList();
    }

    /**
     * Extracts {@code archive} into {@code dir} after checking that every entry lies below {@code top/}
     * (no absolute path, no {@code ..}): a part from the peer can only add files to its own directory.
     *
     * @throws IOException when an entry lies elsewhere, or tar fails
     */
    public void extractBelow(Path archive, Path dir, String top) throws IOException {
        for (String e : list(archive)) {
            if (!(e.equals(top + "/") || e.startsWith(top + "/")) || e.contains("..") || e.startsWith("/")) {
                throw new IOException("unexpected entry '" + e + "' (expected all below " + top + "/)");
            }
        }
        run(List.of("tar", "--extract", "--gzip", "--file", archive.toString(), "--directory", dir.toString(),
                "--no-same-owner", "--no-same-permissions", "--no-overwrite-dir"));
    }

    private String run(List<String> argv) throws IOException {
        ProcessResult r = runner.run(new ProcessSpec(argv, Map.of(), TIMEOUT));
        if (r.timedOut() || r.exitCode() != 0) {
            throw new IOException(String.join(" ", argv.subList(0, 2)) + " failed" + (r.timedOut() ? " (timed out)" : "")
                    + ": " + r.stderr().strip());
        }
        return r.stdout();
    }
}
