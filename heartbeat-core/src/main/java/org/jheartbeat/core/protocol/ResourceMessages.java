package org.jheartbeat.core.protocol;

import org.jheartbeat.core.takeover.Announcement;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;

/**
 * Turns the takeover machine's {@link Announcement}s into Heartbeat 3.0.6 message bodies, fields in
 * the order 3.0.6 sends them (facts C.2; {@code hb_resource.c hb_send_resources_held},
 * {@code send_local_starting}, {@code send_standby_msg}, {@code send_stonith_msg}). Control fields are
 * added afterwards by {@link OutboundStamper}.
 */
public final class ResourceMessages {
    private ResourceMessages() {
    }

    /** The message body for {@code a}, {@code t} first. */
    public static HaMessage encode(Announcement a) {
        if (a instanceof Announcement.Starting) {
            return HaMessage.builder().add(Field.TYPE, MessageType.STARTING.wireName()).build();
        }
        if (a instanceof Announcement.Resources r) {
            HaMessage.Builder b = HaMessage.builder().add(Field.TYPE, MessageType.RESOURCE.wireName())
                    .add(Field.RESOURCES_HELD, r.held().wireName())
                    .add(Field.RESOURCE_REPORT_TYPE, "full")
                    .add(Field.IS_STABLE, r.stable() ? "1" : "0");
            if (r.info() != null && !r.info().isEmpty()) {
                b.add(Field.INFO, r.info());
            }
            return b.build();
        }
        if (a instanceof Announcement.AskResources r) {
            return HaMessage.builder().add(Field.TYPE, MessageType.ASK_RESOURCES.wireName())
                    .add(Field.RESOURCES_HELD, r.set().wireName())
                    .add(Field.INFO, r.phase().wireName()).build();
        }
        if (a instanceof Announcement.Takeover t) {
            return HaMessage.builder().add(Field.TYPE, MessageType.TAKEOVER.wireName())
                    .add(Field.RESOURCES_HELD, t.set().wireName()).build();
        }
        if (a instanceof Announcement.ShutDone) {
            return HaMessage.builder().add(Field.TYPE, MessageType.SHUTDOWN_DONE.wireName())
                    .add(Field.STATUS, "dead").build();
        }
        if (a instanceof Announcement.GroupFailed g) {
            return HaMessage.builder().add(Field.TYPE, MessageType.GROUP_FAILURE.wireName())
                    .add(Field.GROUP_KEY, g.groupKey()).add(Field.GROUP_FAILURE, g.failure().wireName()).build();
        }
        Announcement.StonithReport s = (Announcement.StonithReport) a;
        return HaMessage.builder().add(Field.TYPE, MessageType.STONITH.wireName())
                .add(Field.NODE, s.node().value()).add(Field.RESULT, s.result()).build();
    }
}
