package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jheartbeat.core.takeover.Announcement;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;
import org.junit.jupiter.api.Test;

/** {@code jhb-maint}: every kind round-trips, anything else is a typed verdict, never an exception. */
class MaintenanceMessagesTest {
    @Test
    void setProbeAndRunsRoundTrip() {
        Maintenance m = new Maintenance(9, false, new TreeSet<>(Set.of("node2")), new TreeSet<>(Set.of("g,1")));
        HaMessage set = MaintenanceMessages.set(m, List.of("g2"), Optional.of(List.of()));
        assertThat(set.type()).contains(MessageType.MAINTENANCE.wireName());
        assertThat(MaintenanceMessages.decode(set)).isEqualTo(new MaintenanceMessages.Decoded.Set(m,
                new TreeSet<>(Set.of("g2")), Optional.of(new TreeSet<>())));
        HaMessage plain = MaintenanceMessages.set(Maintenance.NONE, List.of(), Optional.empty());
        assertThat(plain.get(Field.MAINT_NODES)).isEmpty();
        assertThat(MaintenanceMessages.decode(plain)).isEqualTo(new MaintenanceMessages.Decoded.Set(Maintenance.NONE,
                new TreeSet<>(), Optional.empty()));
        assertThat(MaintenanceMessages.decode(MaintenanceMessages.probe(3)))
                .isEqualTo(new MaintenanceMessages.Decoded.Probe(3));
        assertThat(MaintenanceMessages.decode(MaintenanceMessages.runs(3, List.of("a", "b"))))
                .isEqualTo(new MaintenanceMessages.Decoded.Runs(3, new TreeSet<>(Set.of("a", "b"))));
    }

    @Test
    void malformedMessagesAreVerdicts() {
        HaMessage base = HaMessage.builder().add(Field.TYPE, MessageType.MAINTENANCE.wireName()).build();
        assertThat(MaintenanceMessages.decode(base)).isInstanceOf(MaintenanceMessages.Decoded.Malformed.class);
        assertThat(MaintenanceMessages.decode(base.with(Field.MAINT_OP, "set").with(Field.MAINT_VERSION, "-1")
                .with(Field.MAINT_CLUSTER, "on"))).isInstanceOf(MaintenanceMessages.Decoded.Malformed.class);
        assertThat(MaintenanceMessages.decode(base.with(Field.MAINT_OP, "set").with(Field.MAINT_VERSION, "1")
                .with(Field.MAINT_CLUSTER, "on").with(Field.MAINT_GROUPS, "a,%zz")))
                .isInstanceOf(MaintenanceMessages.Decoded.Malformed.class);
        assertThat(MaintenanceMessages.decode(base.with(Field.MAINT_OP, "runs").with(Field.MAINT_REQUEST, "x")))
                .isInstanceOf(MaintenanceMessages.Decoded.Malformed.class);
        assertThat(MaintenanceMessages.decode(base.with(Field.MAINT_OP, "probe").with(Field.MAINT_REQUEST, "1")
                .with(Field.MAINT_RUNS, "y".repeat(MaintenanceMessages.MAX_LIST + 1))))
                .isInstanceOf(MaintenanceMessages.Decoded.Probe.class);
        assertThat(MaintenanceMessages.decode(base.with(Field.MAINT_OP, "runs").with(Field.MAINT_REQUEST, "1")
                .with(Field.MAINT_RUNS, "y".repeat(MaintenanceMessages.MAX_LIST + 1))))
                .isInstanceOf(MaintenanceMessages.Decoded.Malformed.class);
    }

    @Test
    void aShutdoneInMaintenanceIsPrecededByTheSettingWithWhatRunsHere() {
        Maintenance on = new Maintenance(4, true, new TreeSet<>(), new TreeSet<>());
        assertThat(MaintenanceCoordination.beforeAnnouncement(new Announcement.ShutDone(), on, () -> List.of("g")))
                .hasValueSatisfying(m -> assertThat(MaintenanceMessages.decode(m)).isEqualTo(
                        new MaintenanceMessages.Decoded.Set(on, new TreeSet<>(Set.of("g")), Optional.empty())));
        assertThat(MaintenanceCoordination.beforeAnnouncement(new Announcement.ShutDone(), on, List::of))
                .as("nothing left running").isEmpty();
        assertThat(MaintenanceCoordination.beforeAnnouncement(new Announcement.ShutDone(), Maintenance.NONE,
                () -> List.of("g"))).as("not in maintenance").isEmpty();
        assertThat(MaintenanceCoordination.beforeAnnouncement(new Announcement.Resources(ResourceSet.ALL, true, ""),
                on, () -> List.of("g"))).as("not a shutdone").isEmpty();
    }
}
