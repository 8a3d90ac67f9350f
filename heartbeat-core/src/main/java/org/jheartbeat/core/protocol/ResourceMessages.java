package org.jheartbeat.core.protocol;

import java.util.Optional;
import java.util.function.ToIntFunction;
import org.jheartbeat.core.takeover.Announcement;
import org.jheartbeat.core.takeover.GroupFailure;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.StandbyPhase;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;

/**
 * Turns the takeover machine's {@link Announcement}s into Heartbeat 3.0.6 message bodies, and the
 * peer's resource-protocol messages back into {@link TakeoverEvent}s ({@link #decode}). Fields in
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

    /** What one of the peer's resource-protocol messages means for the takeover machine. */
    public sealed interface Decoded {
        /** Feed this event to the machine. */
        record Event(TakeoverEvent event) implements Decoded { }

        /** A malformed message: count it as a bad packet with this reason; nothing changes. */
        record Malformed(String reason) implements Decoded { }
    }

    /**
     * Decodes {@code resource}, {@code ask_resources}, {@code hb_takeover} and {@code jhb-grpfail}
     * (Heartbeat 3.0.6 {@code hb_resource.c}; {@code hb_takeover} as its {@code rc.d/hb_takeover}: the
     * receiver goes standby with the mirrored set). Never throws.
     *
     * @param type       the message's type, one of those four
     * @param m          the message
     * @param groupIndex a group key's haresources index, or -1 when it has no such group
     * @return the event, or why the message is malformed; empty for another type or an
     *         {@code ask_resources} without a usable set or phase (ignored, as 3.0.6 does)
     */
    public static Optional<Decoded> decode(MessageType type, HaMessage m, ToIntFunction<String> groupIndex) {
        switch (type) {
            case RESOURCE -> {
                Optional<ResourceSet> held = m.get(Field.RESOURCES_HELD).flatMap(ResourceSet::fromWire);
                if (held.isEmpty()) {
                    return Optional.of(new Decoded.Malformed("resource message without a valid rsc_hold"));
                }
                boolean full = m.get(Field.RESOURCE_REPORT_TYPE).map("full"::equals).orElse(false);
                boolean stable = m.get(Field.IS_STABLE).map("1"::equals).orElse(false);
                return Optional.of(new Decoded.Event(new TakeoverEvent.PeerResources(held.get(), full, stable,
                        m.get(Field.INFO).orElse(""))));
            }
            case ASK_RESOURCES -> {
                Optional<ResourceSet> set = m.get(Field.RESOURCES_HELD).flatMap(ResourceSet::fromWire);
                Optional<StandbyPhase> phase = m.get(Field.INFO).flatMap(StandbyPhase::fromWire);
                return set.isPresent() && phase.isPresent()
                        ? Optional.of(new Decoded.Event(new TakeoverEvent.PeerAskResources(set.get(), phase.get())))
                        : Optional.empty();
            }
            case TAKEOVER -> {
                ResourceSet mapped = switch (m.get(Field.RESOURCES_HELD).orElse("all")) {
                    case "local" -> ResourceSet.FOREIGN;
                    case "foreign" -> ResourceSet.LOCAL;
                    default -> ResourceSet.ALL;
                };
                return Optional.of(new Decoded.Event(new TakeoverEvent.StandbyRequested(mapped)));
            }
            case GROUP_FAILURE -> {
                Optional<GroupFailure> f = m.get(Field.GROUP_FAILURE).flatMap(GroupFailure::fromWire);
                String key = m.get(Field.GROUP_KEY).orElse("");
                int index = groupIndex.applyAsInt(key);
                if (f.isEmpty() || index < 0) {
                    return Optional.of(new Decoded.Malformed("jhb-grpfail for unknown group [" + key + "] or failure ["
                            + m.get(Field.GROUP_FAILURE).orElse("") + "]"));
                }
                return Optional.of(new Decoded.Event(new TakeoverEvent.PeerGroupFailure(index, f.get())));
            }
            default -> {
                return Optional.empty();
            }
        }
    }
}
