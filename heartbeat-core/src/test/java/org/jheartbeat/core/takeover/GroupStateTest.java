package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jheartbeat.core.control.StatusSnapshot;
import org.junit.jupiter.api.Test;

/** The words {@code hb status} prints for a group's state, read back as the type. */
class GroupStateTest {
    @Test
    void everyWordReadsBackAsItsState() {
        for (GroupState s : GroupState.values()) {
            assertThat(GroupState.ofDisplayName(s.displayName())).isEqualTo(s);
            assertThat(new StatusSnapshot.GroupView("g", "node1", s.displayName(), "-", "g").state()).isEqualTo(s);
        }
    }

    @Test
    void anotherWordIsRefused() {
        assertThatThrownBy(() -> GroupState.ofDisplayName("RUNNING"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("not a group state: RUNNING");
    }
}
