package org.jheartbeat.lab.sim;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The UPS model's output reports follow the power change the caller carried out, not the command. */
class ApcSmartUpsTest {
    private static final long MS = 1_000_000L;

    private static String ask(ApcSmartUps ups, char c, long now) {
        return new String(ups.receive((byte) c, now), US_ASCII).strip();
    }

    @Test
    void zZSwitchesTheOutletButRegistersSayOffOnlyOnceThePowerIsGone() {
        ApcSmartUps ups = new ApcSmartUps(1);
        assertThat(ask(ups, 'Z', 0)).isEmpty();
        assertThat(ask(ups, 'Z', 2050 * MS)).isEmpty();
        assertThat(ups.outletOn()).isFalse();
        assertThat(ups.drainEvents()).containsExactly(ApcSmartUps.Event.OUTLET_OFF);
        assertThat(ask(ups, '~', 2100 * MS)).as("the lab's power-off is still running").isEqualTo("80");
        assertThat(ask(ups, 'Q', 2100 * MS)).isEqualTo("08");
        ups.settled(ApcSmartUps.Event.OUTLET_OFF);
        assertThat(ask(ups, '~', 2200 * MS)).isEqualTo("C0");
        assertThat(ask(ups, 'Q', 2200 * MS)).isEqualTo("00");
        assertThat(ask(ups, (char) 0x0E, 3000 * MS)).isEmpty();
        assertThat(ask(ups, (char) 0x0E, 5000 * MS)).isEmpty();
        assertThat(ups.drainEvents()).containsExactly(ApcSmartUps.Event.OUTLET_ON);
        assertThat(ask(ups, '~', 5100 * MS)).isEqualTo("C0");
        ups.settled(ApcSmartUps.Event.OUTLET_ON);
        assertThat(ask(ups, '~', 5200 * MS)).isEqualTo("80");
    }

    @Test
    void sleepBitAfterTheGraceDelayOnceThePowerIsGone() {
        ApcSmartUps ups = new ApcSmartUps(10);                     // grace 180 s / 10
        assertThat(ask(ups, '@', 0)).isEmpty();
        ask(ups, '0', 0);
        ask(ups, '0', 0);
        assertThat(ask(ups, '0', 0)).isEqualTo("OK");
        ups.advance(18_001 * MS);
        assertThat(ups.drainEvents()).containsExactly(ApcSmartUps.Event.OUTLET_OFF);
        assertThat(ask(ups, '8', 18_002 * MS)).isEqualTo("00");
        ups.settled(ApcSmartUps.Event.OUTLET_OFF);
        assertThat(ask(ups, '8', 18_003 * MS)).isEqualTo("08");
    }
}
