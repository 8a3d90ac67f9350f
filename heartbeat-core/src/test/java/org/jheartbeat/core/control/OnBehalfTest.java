package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.jheartbeat.core.control.ControlRequest.HandoverKind;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.time.MonotonicClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code as FRONTEND:USER REQUEST}: a front end's user named as who asked, the caller still checked. */
class OnBehalfTest {
    static final ControlRequest STANDBY = new ControlRequest.Handover(HandoverKind.STANDBY, ResourceSet.ALL, 120);

    @Test
    void roundTripsAndRefusesReadsNestingAndOddNames() throws Exception {
        ControlRequest r = new ControlRequest.OnBehalf("web:alice", STANDBY);
        assertThat(r.toWire()).isEqualTo("as web:alice standby all 120");
        assertThat(ControlRequest.parse(r.toWire())).isEqualTo(r);
        assertThat(r.changesState()).isTrue();
        assertThat(ControlRequest.parse("as web:bob cleanup")).isEqualTo(new ControlRequest.OnBehalf("web:bob",
                new ControlRequest.Cleanup(Optional.empty())));
        assertThat(ControlRequestTest.reason("as web:alice status")).startsWith("as forwards one change");
        assertThat(ControlRequestTest.reason("as web:alice as web:bob reload")).startsWith("as forwards one change");
        assertThat(ControlRequestTest.reason("as alice reload")).startsWith("as takes FRONTEND:USER");
        assertThat(ControlRequestTest.reason("as web:Root reload")).startsWith("as takes FRONTEND:USER");
        assertThat(ControlRequestTest.reason("as web:alice")).startsWith("as takes FRONTEND:USER and a request");
    }

    @Test
    void theServerNamesTheUserAndTheCallerAndHandsOnTheChangeItself(@TempDir Path dir) throws Exception {
        AtomicReference<String> seen = new AtomicReference<>();
        try (ControlServer s = new ControlServer(dir.resolve("control.sock"), req -> {
            seen.set(req.toWire() + " | " + ControlServer.requester());
            return ControlResponse.ok("");
        }, ControlServer.Limits.DEFAULT, MonotonicClock.system())) {
            s.start();
            ControlClient.request(dir.resolve("control.sock"), new ControlRequest.OnBehalf("web:alice", STANDBY));
        }
        assertThat(seen.get()).startsWith("standby all 120 | web alice via user ");
    }
}
