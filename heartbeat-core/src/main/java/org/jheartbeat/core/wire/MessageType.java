package org.jheartbeat.core.wire;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The values of the {@code t=} field seen by an R1 (haresources) Heartbeat 3.0.6 node, each spelled
 * once here (cluster-glue {@code include/ha_msg.h} {@code T_*} constants; R1 spellings checked against
 * captured packets). Types whose wire name starts with {@code NS_} are unsequenced: they carry no
 * {@code seq} or {@code ld} and skip sequence tracking (heartbeat {@code should_drop_message}).
 */
public enum MessageType {
    /** {@code status}: periodic heartbeat. */
    STATUS("status"),
    /** {@code NS_ackmsg}: flow-control acknowledgement. */
    ACK("NS_ackmsg"),
    /** {@code NS_rexmit}: retransmit request. */
    RETRANSMIT_REQUEST("NS_rexmit"),
    /** {@code NS_nak_rexmit}: cannot retransmit. */
    RETRANSMIT_NAK("NS_nak_rexmit"),
    /** {@code reqnodes}: ask a peer for the node list. */
    REQUEST_NODES("reqnodes"),
    /** {@code repnodes}: node list reply. */
    REPLY_NODES("repnodes"),
    /** {@code starting}: resource manager start-up (nice failback). */
    STARTING("starting"),
    /** {@code resource}: resources held report. */
    RESOURCE("resource"),
    /** {@code ask_resources}: standby protocol. */
    ASK_RESOURCES("ask_resources"),
    /** {@code hb_takeover}: ask the peer to go standby. */
    TAKEOVER("hb_takeover"),
    /** {@code ip-request}: legacy failback request. */
    IP_REQUEST("ip-request"),
    /** {@code ip-request-resp}: legacy failback reply. */
    IP_REQUEST_RESPONSE("ip-request-resp"),
    /** {@code shutdone}: graceful shutdown completed. */
    SHUTDOWN_DONE("shutdone"),
    /** {@code stonith}: STONITH outcome notice. */
    STONITH("stonith"),
    /** {@code query-cstatus}: client status query. */
    QUERY_CLIENT_STATUS("query-cstatus"),
    /** {@code respond-cstatus}: client status reply. */
    RESPOND_CLIENT_STATUS("respond-cstatus"),
    /** {@code addnode}: dynamic node addition. */
    ADD_NODE("addnode"),
    /** {@code delnode}: dynamic node removal. */
    DELETE_NODE("delnode"),
    /** {@code setweight}: node weight change. */
    SET_WEIGHT("setweight"),
    /** {@code setsite}: node site change. */
    SET_SITE("setsite"),
    /** {@code NS_st}: ping-node status. */
    PING_STATUS("NS_st"),
    /**
     * {@code jhb-config}: jheartbeat only, not in Heartbeat 3.0.6. Digests of this node's
     * haresources, authkeys and cluster-relevant ha.cf settings ({@link Field#CONFIG_HARESOURCES},
     * {@link Field#CONFIG_AUTHKEYS}, {@link Field#CONFIG_HA_CF}) and (since per-group digests) a summary of every
     * resource group ({@link Field#CONFIG_GROUPS}; an older jheartbeat sends none), sent after comm up and to a
     * restarted peer. Sequenced like any normal message so a lost one is retransmitted; a real
     * Heartbeat 3.0.6 peer tracks its {@code seq} and drops it as an unknown type (facts C.2).
     */
    CONFIG_DIGEST("jhb-config"),
    /**
     * {@code jhb-grpfail}: jheartbeat only, not in Heartbeat 3.0.6. One resource group's failure on
     * the sender ({@link Field#GROUP_KEY}, {@link Field#GROUP_FAILURE} = {@code start}, {@code stop}
     * or {@code clear}): a failed start offers the group to the receiver, a failed stop tells it not
     * to start the group (docs/design/takeover.md, "Failures"). A real Heartbeat peer drops it as an
     * unknown type, like {@link #CONFIG_DIGEST}.
     */
    GROUP_FAILURE("jhb-grpfail"),
    /**
     * {@code jhb-maint}: jheartbeat only, not in Heartbeat 3.0.6. The maintenance setting (
     * {@link Field#MAINT_OP} {@code set}, with {@link Field#MAINT_VERSION} and the scopes), a request to
     * probe groups ({@code probe}) and its answer ({@code runs}), see docs/design/takeover.md,
     * "Maintenance". Sequenced; a real Heartbeat peer drops it as an unknown type, like {@link #CONFIG_DIGEST}.
     */
    MAINTENANCE("jhb-maint"),
    /**
     * {@code jhb-ping}: jheartbeat only, not in Heartbeat 3.0.6. The sender's count of ping nodes that
     * answer ({@link Field#PING_COUNT}), sent when it changes, after comm up and to a restarted peer, so
     * that each node's ipfail rule can compare (Heartbeat's ipfail clients exchange {@code num_ping_nodes}
     * through their daemons instead). A real Heartbeat peer drops it as an unknown type.
     */
    PING_COUNT("jhb-ping"),
    /**
     * {@code jhb-groups}: jheartbeat only, not in Heartbeat 3.0.6. The run state of every resource group
     * on the sender ({@link Field#GROUP_STATES}), sent when one changes, after comm up and to a restarted
     * or returned peer, so that the receiver's {@code hb status} says where each group runs from what the
     * node running it says (Heartbeat's {@code rsc_hold} covers a whole share, not each group). A real
     * Heartbeat peer drops it as an unknown type.
     */
    GROUP_STATES("jhb-groups");

    private static final Map<String, MessageType> BY_WIRE_NAME =
            Stream.of(values()).collect(Collectors.toUnmodifiableMap(MessageType::wireName, Function.identity()));

    private final String wireName;

    MessageType(String wireName) {
        this.wireName = wireName;
    }

    /** The exact, case-sensitive {@code t=} value. */
    public String wireName() {
        return wireName;
    }

    /** Whether this type is unsequenced (wire name starts with {@code NS_}). */
    public boolean unsequenced() {
        return wireName.startsWith("NS_");
    }

    /**
     * @param wireName a {@code t=} value as received, any string or null
     * @return the type, or empty if unknown (unknown types must be tolerated, not fatal)
     */
    public static Optional<MessageType> fromWire(String wireName) {
        return wireName == null ? Optional.empty() : Optional.ofNullable(BY_WIRE_NAME.get(wireName));
    }
}
