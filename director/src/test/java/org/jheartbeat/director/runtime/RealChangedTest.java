package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.director.runtime.DirectorKernelTest.R2;
import static org.jheartbeat.director.runtime.DirectorKernelTest.VIP;
import static org.jheartbeat.director.runtime.DirectorKernelTest.config;

import java.util.List;
import org.jheartbeat.director.table.TableSnapshot;
import org.junit.jupiter.api.Test;

/** Each change of a real server is also one {@link DirectorAction.RealChanged}, for the event journal. */
class RealChangedTest {
    static List<DirectorAction.RealChanged> changes(List<DirectorAction> actions) {
        return actions.stream().filter(a -> a instanceof DirectorAction.RealChanged)
                .map(a -> (DirectorAction.RealChanged) a).toList();
    }

    @Test
    void aRealTakenOutAndPutBackIsTwoChanges() {
        DirectorKernel k = new DirectorKernel();
        k.start(config(DirectorKernelTest.SEED), TableSnapshot.empty());
        k.checked(VIP, R2, true, "");
        assertThat(changes(k.checked(VIP, R2, false, "Connection refused"))).containsExactly(
                new DirectorAction.RealChanged("198.18.0.100:80", "198.18.0.22:80", true,
                        "Deleted real server: 198.18.0.22:80 (198.18.0.100:80)"));
        assertThat(changes(k.checked(VIP, R2, true, ""))).singleElement().satisfies(c -> {
            assertThat(c.down()).isFalse();
            assertThat(c.message()).startsWith("Added real server: 198.18.0.22:80");
        });
    }
}
