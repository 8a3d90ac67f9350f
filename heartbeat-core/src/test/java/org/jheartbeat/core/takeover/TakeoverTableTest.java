package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every state × event cell of the {@link TakeoverMachine} against the table written in
 * docs/design/takeover.md ("State × event table"): the test reads the table from the document, so
 * the document and the code cannot drift apart. A cell is the state after the event, {@code =} for
 * unchanged, followed by what the machine asked for: {@code +start}, {@code +stop}, {@code +fence},
 * {@code +send} (a protocol message), {@code +exit} (shutdown complete).
 *
 * <p>The machine under test is node1 with two groups, {@code g1} preferred by node1 and {@code g2}
 * preferred by node2, no STONITH device except in FENCING (which cannot be reached without one).
 * Each state is reached from a new machine by the shortest real sequence of events.
 *
 * <p>A second table ("State × event table in maintenance") has the same cells for a machine that was
 * put in cluster-wide maintenance ({@link TakeoverEvent.MaintenanceSet}) once in the state.
 */
class TakeoverTableTest {
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");
    static final List<ResourceGroupDecl> GROUPS = List.of(
            new ResourceGroupDecl(N1, List.of(new ResourceSpec("g1", List.of(), "g1")), 1),
            new ResourceGroupDecl(N2, List.of(new ResourceSpec("g2", List.of(), "g2")), 2));
    static final long T0 = 1_000_000_000L;

    static final Maintenance CLUSTER_ON = Maintenance.NONE.with(Maintenance.Scope.CLUSTER, true, 1);
    static final Maintenance CLUSTER_OFF = CLUSTER_ON.with(Maintenance.Scope.CLUSTER, false, 2);

    /** The events of the table, in its row order. */
    static final Map<String, Supplier<TakeoverEvent>> EVENTS = new LinkedHashMap<>();

    static {
        EVENTS.put("CommUp", TakeoverEvent.CommUp::new);
        EVENTS.put("PeerStarting", TakeoverEvent.PeerStarting::new);
        EVENTS.put("PeerResources none stable", () -> new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""));
        EVENTS.put("PeerResources local stable", () -> new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""));
        EVENTS.put("PeerAskResources me", () -> new TakeoverEvent.PeerAskResources(ResourceSet.LOCAL, StandbyPhase.ME));
        EVENTS.put("PeerAskResources other", () -> new TakeoverEvent.PeerAskResources(ResourceSet.LOCAL, StandbyPhase.OTHER));
        EVENTS.put("PeerAskResources done", () -> new TakeoverEvent.PeerAskResources(ResourceSet.LOCAL, StandbyPhase.DONE));
        EVENTS.put("PeerDead", TakeoverEvent.PeerDead::new);
        EVENTS.put("PeerShutdown", TakeoverEvent.PeerShutdown::new);
        EVENTS.put("PeerReturned", TakeoverEvent.PeerReturned::new);
        EVENTS.put("PeerRestarted", TakeoverEvent.PeerRestarted::new);
        EVENTS.put("StandbyRequested local", () -> new TakeoverEvent.StandbyRequested(ResourceSet.LOCAL));
        EVENTS.put("TakeoverRequested foreign", () -> new TakeoverEvent.TakeoverRequested(ResourceSet.FOREIGN));
        EVENTS.put("ShutdownRequested", TakeoverEvent.ShutdownRequested::new);
        EVENTS.put("GroupStarted g1 ok", () -> new TakeoverEvent.GroupStarted(0, true));
        EVENTS.put("GroupStarted g1 failed", () -> new TakeoverEvent.GroupStarted(0, false, "test"));
        EVENTS.put("GroupStarted g1 failed, left running",
                () -> new TakeoverEvent.GroupStarted(0, StartOutcome.FAILED_STILL_RUNNING, "test"));
        EVENTS.put("GroupStopped g1 ok", () -> new TakeoverEvent.GroupStopped(0, true));
        EVENTS.put("GroupStopped g1 failed", () -> new TakeoverEvent.GroupStopped(0, false, "test"));
        EVENTS.put("GroupFailedRunning g1", () -> new TakeoverEvent.GroupFailedRunning(0, "test"));
        EVENTS.put("PeerGroupFailure g2 start", () -> new TakeoverEvent.PeerGroupFailure(1, GroupFailure.START));
        EVENTS.put("PeerGroupFailure g2 stop", () -> new TakeoverEvent.PeerGroupFailure(1, GroupFailure.STOP));
        EVENTS.put("PeerGroupFailure g2 clear", () -> new TakeoverEvent.PeerGroupFailure(1, GroupFailure.CLEAR));
        EVENTS.put("CleanupRequested all", () -> new TakeoverEvent.CleanupRequested(-1));
        EVENTS.put("GroupsDisputed g1", () -> new TakeoverEvent.GroupsDisputed(java.util.Set.of(0)));
        EVENTS.put("PeerGroupStates g1 and g2 running there", () -> new TakeoverEvent.PeerGroupStates(
                Map.of("g1", GroupState.RUNNING, "g2", GroupState.RUNNING)));
        EVENTS.put("PeerGroupStates g1 and g2 stopped there", () -> new TakeoverEvent.PeerGroupStates(
                Map.of("g1", GroupState.STOPPED, "g2", GroupState.STOPPED)));
        EVENTS.put("PeerGroupsRunning g2", () -> new TakeoverEvent.PeerGroupsRunning(java.util.Set.of(1)));
        EVENTS.put("Resync on", () -> new TakeoverEvent.Resync(true, java.util.Set.of()));
        EVENTS.put("Resync off, g2 held there", () -> new TakeoverEvent.Resync(false, java.util.Set.of(1)));
        EVENTS.put("IdentityConflict on", () -> new TakeoverEvent.IdentityConflict(true));
        EVENTS.put("IdentityConflict off", () -> new TakeoverEvent.IdentityConflict(false));
        EVENTS.put("FenceOutcome ok", () -> new TakeoverEvent.FenceOutcome(true, "OK"));
        EVENTS.put("FenceOutcome failed", () -> new TakeoverEvent.FenceOutcome(false, "RESETFAIL"));
        EVENTS.put("Tick 60 s later", TakeoverEvent.Tick::new);
        EVENTS.put("MaintenanceSet cluster on", () -> new TakeoverEvent.MaintenanceSet(CLUSTER_ON));
        EVENTS.put("MaintenanceSet off, g1 runs here", () -> new TakeoverEvent.MaintenanceSet(CLUSTER_OFF,
                java.util.Set.of(0, 1), java.util.Set.of(0), java.util.Set.of(), java.util.Set.of()));
        EVENTS.put("MaintenanceSet off, g1 runs nowhere", () -> new TakeoverEvent.MaintenanceSet(CLUSTER_OFF,
                java.util.Set.of(0, 1), java.util.Set.of(), java.util.Set.of(), java.util.Set.of()));
    }

    static final String TABLE = "## State × event table";
    static final String MAINTENANCE_TABLE = "## State × event table in maintenance";

    /** A machine in {@code state}, reached by real events. */
    static TakeoverMachine in(TakeoverState state) {
        TakeoverMachine m = new TakeoverMachine(N1, N2, GROUPS, FailbackPolicy.ON,
                TakeoverSettings.DEFAULTS.withFencing(state == TakeoverState.FENCING));
        if (state == TakeoverState.AWAITING_COMM) {
            return m;
        }
        m.on(new TakeoverEvent.CommUp(), T0);
        if (state == TakeoverState.NEGOTIATING) {
            return m;
        }
        m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), T0);
        m.on(new TakeoverEvent.GroupStarted(0, true), T0);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""), T0);
        switch (state) {
            case STABLE -> { }
            case STANDBY_GIVING -> m.on(new TakeoverEvent.StandbyRequested(ResourceSet.LOCAL), T0);
            case STANDBY_TAKING -> m.on(new TakeoverEvent.PeerAskResources(ResourceSet.LOCAL, StandbyPhase.ME), T0);
            case FENCING -> m.on(new TakeoverEvent.PeerDead(), T0);
            case SHUTTING_DOWN -> m.on(new TakeoverEvent.ShutdownRequested(), T0);
            case STOPPED -> {
                m.on(new TakeoverEvent.ShutdownRequested(), T0);
                m.on(new TakeoverEvent.GroupStopped(0, true), T0);
            }
            default -> throw new IllegalArgumentException(state.toString());
        }
        assertThat(m.state()).isEqualTo(state);
        return m;
    }

    /** The cell for one event fed to a machine in {@code state}. */
    static String cell(TakeoverState state, String event) {
        return cell(state, event, false);
    }

    /** The cell for one event fed to a machine in {@code state}, put in cluster-wide maintenance first if asked. */
    static String cell(TakeoverState state, String event, boolean maintenance) {
        TakeoverMachine m = in(state);
        if (maintenance) {
            m.on(new TakeoverEvent.MaintenanceSet(CLUSTER_ON), T0);
        }
        List<Effect> actions = m.on(EVENTS.get(event).get(), event.startsWith("Tick") ? T0 + 60_000_000_000L : T0);
        TreeSet<String> kinds = new TreeSet<>();
        for (Effect a : actions) {
            if (a instanceof Effect.StartGroup) {
                kinds.add("+start");
            } else if (a instanceof Effect.StopGroup) {
                kinds.add("+stop");
            } else if (a instanceof Effect.FencePeer) {
                kinds.add("+fence");
            } else if (a instanceof Effect.Announce) {
                kinds.add("+send");
            } else if (a instanceof Effect.ShutdownComplete) {
                kinds.add("+exit");
            }
        }
        String next = m.state() == state ? "=" : name(m.state());
        return kinds.isEmpty() ? next : next + " " + String.join(" ", kinds);
    }

    static String name(TakeoverState s) {
        return s.name().toLowerCase(Locale.ROOT);
    }

    /** The table as docs/design/takeover.md writes it: event → state → cell. */
    static Map<String, Map<String, String>> documented() throws IOException {
        return documented(TABLE);
    }

    /** The table under heading {@code section} of docs/design/takeover.md: event → state → cell. */
    static Map<String, Map<String, String>> documented(String section) throws IOException {
        Path doc = Path.of(System.getProperty("project.root", "..")).resolve("docs/design/takeover.md");
        List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
        int start = lines.indexOf(section);
        assertThat(start).as("docs/design/takeover.md has a '%s' section", section).isNotNegative();
        Map<String, Map<String, String>> table = new LinkedHashMap<>();
        List<String> header = null;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (!line.startsWith("|") || line.startsWith("|---")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (String c : line.substring(1, line.length() - 1).split("\\|", -1)) {
                cells.add(c.trim().replace("`", ""));
            }
            if (header == null) {
                header = cells;
                continue;
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 1; i < cells.size(); i++) {
                row.put(header.get(i), cells.get(i));
            }
            table.put(cells.get(0), row);
        }
        return table;
    }

    static Stream<Arguments> cells() {
        List<Arguments> all = new ArrayList<>();
        for (String e : EVENTS.keySet()) {
            for (TakeoverState s : TakeoverState.values()) {
                all.add(Arguments.of(s, e));
            }
        }
        return all.stream();
    }

    /**
     * Every kind of event the machine takes has a row: a new {@link TakeoverEvent} record without one
     * would be a decision nobody wrote down.
     */
    @org.junit.jupiter.api.Test
    void everyEventKindHasARow() {
        TreeSet<String> kinds = new TreeSet<>();
        for (Class<?> c : TakeoverEvent.class.getPermittedSubclasses()) {
            kinds.add(c.getSimpleName());
        }
        TreeSet<String> rows = new TreeSet<>();
        for (String e : EVENTS.keySet()) {
            rows.add(e.split(" ")[0]);
        }
        assertThat(rows).as("event kinds with a row in the table").isEqualTo(kinds);
    }

    /**
     * IdentityConflict changes no cell by itself (its rows are all {@code =}): what it changes is the starts
     * that follow, held back until it is off, while what runs goes on running.
     */
    @org.junit.jupiter.api.Test
    void anIdentityConflictHoldsEveryStartBackUntilItIsOffAndStopsNothing() {
        TakeoverMachine m = in(TakeoverState.NEGOTIATING);
        assertThat(m.on(new TakeoverEvent.IdentityConflict(true), T0)).isEmpty();
        assertThat(m.identityConflict()).isTrue();
        List<Effect> answered = m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), T0);
        assertThat(answered).noneMatch(e -> e instanceof Effect.StartGroup);
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
        assertThat(m.groupState(0)).isEqualTo(GroupState.STOPPED);
        assertThat(m.groupProblem(0)).isEqualTo("not started here while another live node uses this node's name node1"
                + " (see the CRIT log line)");
        List<Effect> off = m.on(new TakeoverEvent.IdentityConflict(false), T0);
        assertThat(off).containsExactly(new Effect.StartGroup(0, GroupOpReason.LOCAL_START));
        assertThat(m.identityConflict()).isFalse();

        TakeoverMachine running = in(TakeoverState.STABLE);
        assertThat(running.on(new TakeoverEvent.IdentityConflict(true), T0)).isEmpty();
        assertThat(running.groupState(0)).isEqualTo(GroupState.RUNNING);
        assertThat(running.groupProblem(0)).isEmpty();
    }

    @ParameterizedTest(name = "{0} × {1}")
    @MethodSource("cells")
    void everyCellIsAsDocumented(TakeoverState state, String event) throws IOException {
        Map<String, Map<String, String>> doc = documented();
        assertThat(doc).as("a row for event %s", event).containsKey(event);
        assertThat(doc.get(event)).as("a column for state %s", name(state)).containsKey(name(state));
        assertThat(cell(state, event)).as("%s × %s", name(state), event).isEqualTo(doc.get(event).get(name(state)));
    }

    @ParameterizedTest(name = "maintenance: {0} × {1}")
    @MethodSource("cells")
    void everyCellInMaintenanceIsAsDocumented(TakeoverState state, String event) throws IOException {
        Map<String, Map<String, String>> doc = documented(MAINTENANCE_TABLE);
        assertThat(doc).as("a row for event %s", event).containsKey(event);
        assertThat(doc.get(event)).as("a column for state %s", name(state)).containsKey(name(state));
        assertThat(cell(state, event, true)).as("maintenance: %s × %s", name(state), event)
                .isEqualTo(doc.get(event).get(name(state)));
    }

    /** Prints the table as the code has it (markdown), to write or review the document. */
    public static void main(String[] args) {
        boolean maintenance = args.length > 0 && args[0].equals("maintenance");
        StringBuilder sb = new StringBuilder("| event \\ state |");
        for (TakeoverState s : TakeoverState.values()) {
            sb.append(' ').append(name(s)).append(" |");
        }
        sb.append("\n|---|");
        for (TakeoverState s : TakeoverState.values()) {
            sb.append("---|");
        }
        sb.append('\n');
        for (String e : EVENTS.keySet()) {
            sb.append("| ").append(e).append(" |");
            for (TakeoverState s : TakeoverState.values()) {
                sb.append(" `").append(cell(s, e, maintenance)).append("` |");
            }
            sb.append('\n');
        }
        System.out.print(sb);
    }
}
