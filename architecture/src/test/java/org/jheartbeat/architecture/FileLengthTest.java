package org.jheartbeat.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The 500-line rule of docs/architecture.md: no main source file ({@code MODULE/src/main/java/**.java})
 * is over {@value #MAX_LINES} lines unless {@code long-files.txt} (this module's test resources) lists it
 * with a reason. The list only shrinks: an entry whose file is gone or back under the limit fails too,
 * so that it is removed when the file is split.
 */
class FileLengthTest {
    static final int MAX_LINES = 500;
    static final String ALLOW_LIST = "long-files.txt";

    static Path root;
    static Map<String, Long> lengths;

    @BeforeAll
    static void countLines() throws IOException {
        // set by this module's pom; ".." from the module directory when run some other way
        root = Path.of(System.getProperty("jhb.root", "..")).toAbsolutePath().normalize();
        lengths = new TreeMap<>();
        try (Stream<Path> children = Files.list(root)) {
            for (Path module : children.filter(d -> Files.isDirectory(d.resolve("src/main/java"))).toList()) {
                try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                        try (Stream<String> lines = Files.lines(f, StandardCharsets.UTF_8)) {
                            lengths.put(root.relativize(f).toString(), lines.count());
                        }
                    }
                }
            }
        }
    }

    @Test
    void everyModulesSourcesAreCounted() {
        // a wrong root would find nothing and pass every check below
        for (ArchitectureTest.Module m : ArchitectureTest.Module.values()) {
            assertThat(lengths.keySet()).as("main sources of %s under %s", m.directory, root)
                    .anyMatch(p -> p.startsWith(m.directory + "/src/main/java/"));
        }
    }

    @Test
    void noMainFileOverTheLimitUnlessAllowed() throws IOException {
        Map<String, String> allowed = allowList();
        List<String> tooLong = new ArrayList<>();
        lengths.forEach((path, n) -> {
            if (n > MAX_LINES && !allowed.containsKey(path)) {
                tooLong.add(path + ": " + n + " lines");
            }
        });
        assertThat(tooLong).as("main source files over %d lines: split them (a new class for the new part; see"
                + " docs/architecture.md), or, with a reason, list them in architecture/src/test/resources/%s",
                MAX_LINES, ALLOW_LIST).isEmpty();
    }

    @Test
    void theAllowListHasOnlyFilesOverTheLimit() throws IOException {
        List<String> stale = new ArrayList<>();
        allowList().keySet().forEach(path -> {
            Long n = lengths.get(path);
            if (n == null) {
                stale.add(path + ": no such main source file");
            } else if (n <= MAX_LINES) {
                stale.add(path + ": " + n + " lines, within the limit");
            }
        });
        assertThat(stale).as("entries of architecture/src/test/resources/%s to remove", ALLOW_LIST).isEmpty();
    }

    /** PATH (from the checkout) to its reason; blank lines and # comments skipped; an entry without reason fails. */
    static Map<String, String> allowList() throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (InputStream in = FileLengthTest.class.getResourceAsStream("/" + ALLOW_LIST)) {
            assertThat(in).as(ALLOW_LIST + " on the test class path").isNotNull();
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i].strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] pathAndReason = line.split("\\s+", 2);
                assertThat(pathAndReason).as("%s:%d: give the reason after the path", ALLOW_LIST, i + 1).hasSize(2);
                assertThat(entries.put(pathAndReason[0], pathAndReason[1]))
                        .as("%s:%d: %s is listed twice", ALLOW_LIST, i + 1, pathAndReason[0]).isNull();
            }
        }
        return entries;
    }
}
