package org.jheartbeat.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The dependency rules of docs/architecture.md, checked against the main classes of every module
 * (tests excluded: they may reach across packages to build fixtures). A rule that fails names each
 * offending class and the dependency, with the line of the source file.
 *
 * <p>To change an arrow, change {@link #MAY_IMPORT} and the table in docs/architecture.md together.
 * The rules are methods, not {@code ArchRule} fields, so that {@code -Dtest=ArchitectureTest} runs them
 * all (surefire's filter drops field-based ArchUnit tests).
 */
@AnalyzeClasses(packages = "org.jheartbeat", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    /** The modules with main classes, by directory, and the package every one of their classes is under. */
    enum Module {
        HEARTBEAT_CORE("heartbeat-core", "org.jheartbeat.core"),
        RESOURCES("resources", "org.jheartbeat.resources"),
        STONITH("stonith", "org.jheartbeat.stonith"),
        SYNC("sync", "org.jheartbeat.sync"),
        DIRECTOR("director", "org.jheartbeat.director"),
        EXPORT("export", "org.jheartbeat.export"),
        CLI("cli", "org.jheartbeat.cli"),
        LAB_SIM("lab", "org.jheartbeat.lab"),
        BENCH("bench", "org.jheartbeat.bench");

        final String directory;
        final String rootPackage;

        Module(String directory, String rootPackage) {
            this.directory = directory;
            this.rootPackage = rootPackage;
        }

        /** ArchUnit's pattern for this package and everything under it. */
        String packages() {
            return rootPackage + "..";
        }
    }

    /** The allowed arrows between modules: the table of docs/architecture.md. Anything else is forbidden. */
    static final Map<Module, Set<Module>> MAY_IMPORT = Map.of(
            Module.HEARTBEAT_CORE, EnumSet.noneOf(Module.class),
            Module.RESOURCES, EnumSet.of(Module.HEARTBEAT_CORE),
            Module.STONITH, EnumSet.of(Module.HEARTBEAT_CORE),
            Module.SYNC, EnumSet.of(Module.HEARTBEAT_CORE, Module.RESOURCES),
            Module.DIRECTOR, EnumSet.of(Module.HEARTBEAT_CORE),
            Module.EXPORT, EnumSet.of(Module.HEARTBEAT_CORE, Module.RESOURCES, Module.STONITH, Module.SYNC),
            Module.CLI, EnumSet.of(Module.HEARTBEAT_CORE, Module.RESOURCES, Module.STONITH, Module.SYNC,
                    Module.DIRECTOR, Module.EXPORT),
            Module.LAB_SIM, EnumSet.of(Module.HEARTBEAT_CORE),
            Module.BENCH, EnumSet.of(Module.HEARTBEAT_CORE, Module.SYNC));

    /**
     * The parts of heartbeat-core that are Heartbeat's protocol; the director (ldirectord) runs beside
     * the cluster, not inside it, and shares only config parsing helpers, exec and time with core.
     */
    static final String[] PROTOCOL = {"org.jheartbeat.core.wire..", "org.jheartbeat.core.protocol..",
        "org.jheartbeat.core.takeover..", "org.jheartbeat.core.membership..", "org.jheartbeat.core.media.."};

    @ArchTest
    static void noPackageCycles(JavaClasses classes) {
        // every package is its own slice: org.jheartbeat.cli and org.jheartbeat.cli.command are two
        slices().matching("org.jheartbeat.(**)").should().beFreeOfCycles()
                .because("a package may depend on another only if that one does not depend back, directly or"
                        + " through others: move the type that causes the back-edge into the lower package")
                .check(classes);
    }

    @ArchTest
    static void heartbeatCore(JavaClasses classes) {
        onlyAllowedArrows(Module.HEARTBEAT_CORE).check(classes);
    }

    @ArchTest
    static void resources(JavaClasses classes) {
        onlyAllowedArrows(Module.RESOURCES).check(classes);
    }

    @ArchTest
    static void stonith(JavaClasses classes) {
        onlyAllowedArrows(Module.STONITH).check(classes);
    }

    @ArchTest
    static void sync(JavaClasses classes) {
        onlyAllowedArrows(Module.SYNC).check(classes);
    }

    @ArchTest
    static void director(JavaClasses classes) {
        onlyAllowedArrows(Module.DIRECTOR).check(classes);
    }

    @ArchTest
    static void export(JavaClasses classes) {
        onlyAllowedArrows(Module.EXPORT).check(classes);
    }

    @ArchTest
    static void cli(JavaClasses classes) {
        onlyAllowedArrows(Module.CLI).check(classes);
    }

    @ArchTest
    static void labSim(JavaClasses classes) {
        onlyAllowedArrows(Module.LAB_SIM).check(classes);
    }

    @ArchTest
    static void bench(JavaClasses classes) {
        onlyAllowedArrows(Module.BENCH).check(classes);
    }

    @ArchTest
    static void directorDoesNotSpeakTheProtocol(JavaClasses classes) {
        noClasses().that().resideInAPackage(Module.DIRECTOR.packages())
                .should().dependOnClassesThat().resideInAnyPackage(PROTOCOL)
                .because("the director is ldirectord, not a cluster node: it may use core's config, exec and time"
                        + " helpers, never the wire format, the protocol engine, takeover, membership or media")
                .check(classes);
    }

    /**
     * The classes besides {@code org.jheartbeat.core.time} that may read the JVM's clocks directly, each
     * with why: where a program is put together (it hands the system clocks to what it builds), an I/O
     * edge whose wait must be on the clock the JDK measures it on.
     * Everything else takes a {@code MonotonicClock} (deadlines, intervals, elapsed time) or a
     * {@code java.time.Clock} (wall time) from its caller. Keep this list short.
     */
    static final Map<String, String> MAY_READ_SYSTEM_CLOCKS = Map.of(
            "org.jheartbeat.core.loop.ThreadLoopScheduler", "the loop's production scheduler: its clock is the one"
                    + " its executor measures delays on",
            "org.jheartbeat.core.exec.OsProcessRunner", "I/O edge: a bounded wait for the launcher thread's latch",
            "org.jheartbeat.cli.daemon.Daemon", "assembly point: the daemon's wall clock",
            "org.jheartbeat.cli.command.SyncCommand", "command entry point: the wall clock of its services",
            "org.jheartbeat.cli.command.BackupCommand", "command entry point: the wall clock of its services",
            "org.jheartbeat.director.alert.AlertMailer", "assembly point: standard(), the director's mailer",
            "org.jheartbeat.director.runtime.Director", "public convenience constructors: the monitorfile's wall clock",
            "org.jheartbeat.cli.command.ConfigCommand", "command entry point: hb config check's wall clock (the end"
                    + " of a key roll-over window)",
            "org.jheartbeat.bench.ReplicationBench", "a benchmark's main: times itself on the real clocks");

    @ArchTest
    static void onlyTheTimePackageReadsTheSystemClocks(JavaClasses classes) {
        noClasses().that().resideOutsideOfPackage("org.jheartbeat.core.time..")
                .and(DescribedPredicate.describe("are not listed in MAY_READ_SYSTEM_CLOCKS",
                        (JavaClass c) -> !MAY_READ_SYSTEM_CLOCKS.containsKey(c.getName())
                                && !MAY_READ_SYSTEM_CLOCKS.containsKey(c.getName().replaceFirst("\\$.*", ""))))
                .should().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(java.time.Instant.class, "now")
                .orShould().callMethod(java.time.ZonedDateTime.class, "now")
                .orShould().callMethod(java.time.LocalDateTime.class, "now")
                .orShould().callMethod(java.time.OffsetDateTime.class, "now")
                .orShould().callMethod(java.time.LocalDate.class, "now")
                .orShould().callMethod(java.time.Clock.class, "systemUTC")
                .orShould().callMethod(java.time.Clock.class, "systemDefaultZone")
                .because("monotonic time is read through an injected MonotonicClock and wall time through an injected"
                        + " java.time.Clock; the system ones are created in org.jheartbeat.core.time or at the few"
                        + " places MAY_READ_SYSTEM_CLOCKS lists, so that decisions run on an injected clock in tests")
                .check(classes);
    }

    /** Guards the rules above against an import that silently missed a module (they would pass on nothing). */
    @ArchTest
    static void everyModuleIsAnalysed(JavaClasses classes) {
        Set<String> seen = classes.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
        for (Module m : Module.values()) {
            assertThat(seen).as("main classes of %s (%s) on the test class path", m.directory, m.rootPackage)
                    .anyMatch(p -> p.equals(m.rootPackage) || p.startsWith(m.rootPackage + "."));
        }
    }

    private static ArchRule onlyAllowedArrows(Module from) {
        Set<Module> allowed = MAY_IMPORT.get(from);
        String[] forbidden = Arrays.stream(Module.values())
                .filter(m -> m != from && !allowed.contains(m))
                .map(Module::packages)
                .toArray(String[]::new);
        String allowedNames = allowed.isEmpty() ? "no other module"
                : allowed.stream().map(m -> m.directory).collect(Collectors.joining(", "));
        return noClasses().that().resideInAPackage(from.packages())
                .should().dependOnClassesThat().resideInAnyPackage(forbidden)
                .because(from.directory + " may import " + allowedNames + " (docs/architecture.md, the module table)");
    }
}
