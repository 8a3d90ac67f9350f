package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.jheartbeat.core.takeover.Announcement;
import org.jheartbeat.core.takeover.GroupFailure;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.StandbyPhase;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;
import org.junit.jupiter.api.Test;

/** The peer's resource-protocol messages as takeover events: what we encode decodes back; bad ones are named. */
class ResourceMessagesDecodeTest {
    static Optional<ResourceMessages.Decoded> decode(HaMessage m) {
        MessageType t = MessageType.fromWire(m.get(Field.TYPE).orElseThrow()).orElseThrow();
        return ResourceMessages.decode(t, m, key -> key.equals("g1") ? 0 : -1);
    }

    static TakeoverEvent event(Announcement a) {
        return ((ResourceMessages.Decoded.Event) decode(ResourceMessages.encode(a)).orElseThrow()).event();
    }

    @Test
    void whatWeSendIsWhatThePeerHears() {
        assertThat(event(new Announcement.Resources(ResourceSet.LOCAL, true, "mach_down")))
                .isEqualTo(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, "mach_down"));
        assertThat(event(new Announcement.AskResources(ResourceSet.FOREIGN, StandbyPhase.OTHER)))
                .isEqualTo(new TakeoverEvent.PeerAskResources(ResourceSet.FOREIGN, StandbyPhase.OTHER));
        assertThat(event(new Announcement.Takeover(ResourceSet.LOCAL)))
                .as("hb_takeover local: the receiver gives its foreign set").isEqualTo(
                        new TakeoverEvent.StandbyRequested(ResourceSet.FOREIGN));
        assertThat(event(new Announcement.GroupFailed("g1", GroupFailure.SELF_FENCE)))
                .isEqualTo(new TakeoverEvent.PeerGroupFailure(0, GroupFailure.SELF_FENCE));
    }

    @Test
    void malformedMessagesAreNamedNotThrown() {
        assertThat(decode(HaMessage.builder().add(Field.TYPE, "resource").add(Field.RESOURCES_HELD, "most").build()))
                .contains(new ResourceMessages.Decoded.Malformed("resource message without a valid rsc_hold"));
        assertThat(decode(HaMessage.builder().add(Field.TYPE, "jhb-grpfail").add(Field.GROUP_KEY, "nope")
                .add(Field.GROUP_FAILURE, "start").build())).contains(
                        new ResourceMessages.Decoded.Malformed("jhb-grpfail for unknown group [nope] or failure [start]"));
        assertThat(decode(HaMessage.builder().add(Field.TYPE, "jhb-grpfail").add(Field.GROUP_KEY, "g1")
                .add(Field.GROUP_FAILURE, "explode").build())).get()
                .isInstanceOf(ResourceMessages.Decoded.Malformed.class);
        assertThat(decode(HaMessage.builder().add(Field.TYPE, "ask_resources").add(Field.RESOURCES_HELD, "all")
                .add(Field.INFO, "maybe").build())).as("ignored, as 3.0.6").isEmpty();
    }
}
