package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fault matrix ({@link FaultMatrix}): every fault drilled in the lab with its outcome checked.
 * {@link #ciSubset} runs in CI: four fast faults on one lab (a freeze inside deadtime, the passive node frozen just past deadtime twice, a
 * daemon SIGKILLed and restarted, eth1 flapping for 10 s). {@link #fullMatrix} is a drill
 * ({@code -Djhb.drills=true}, or {@code bench/fault-matrix.sh}): every scenario on a fresh lab, about
 * 10 minutes; {@code -Djhb.faults=TEXT} runs only the scenarios whose name contains TEXT. Both print
 * the table and write it to {@code cli/target/fault-matrix*.md}; a row fails when its expected outcome
 * or its never-two-serving value is not what was observed.
 */
@Tag("root")
class FaultMatrixIT {

    @Test
    void ciSubset() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        report("fault-matrix-ci.md", FaultMatrix.run(FaultMatrix.ciSubset(), FaultMatrix.CI));
    }

    @Test
    void fullMatrix() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Boolean.getBoolean("jhb.drills"), "a drill: bench/fault-matrix.sh or -Djhb.drills=true (README)");
        report("fault-matrix.md", FaultMatrix.run(FaultMatrix.all(), null));
    }

    private static void report(String file, List<FaultMatrix.Row> rows) throws Exception {
        String table = FaultMatrix.table(rows);
        System.out.println("FAULT-MATRIX table:\n" + table);
        Path out = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize()
                .resolve("cli/target").resolve(file);
        Files.writeString(out, table, StandardCharsets.UTF_8);
        assertThat(rows).as("scenarios run").isNotEmpty();
        assertThat(rows).as("rows that failed\n" + table).allMatch(FaultMatrix.Row::pass);
    }
}
