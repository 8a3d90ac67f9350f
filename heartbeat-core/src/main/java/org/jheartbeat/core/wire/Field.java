package org.jheartbeat.core.wire;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Wire names of the message fields used by Heartbeat 3.0.6 in R1 mode, each spelled once here (the
 * analogue of cluster-glue {@code include/ha_msg.h} {@code F_*} constants; spellings checked against
 * captured packets). Field names are case-sensitive on the wire. Messages may carry names not listed
 * here; {@link HaMessage} accepts any valid name.
 */
public enum Field {
    /** {@code t}: the message type, see {@link MessageType}. */
    TYPE("t"),
    /** {@code st}: node status ({@code init}, {@code up}, {@code active}, {@code dead}). */
    STATUS("st"),
    /** {@code dt}: advertised deadtime, lowercase hex milliseconds. */
    DEADTIME("dt"),
    /** {@code protocol}: {@code 1} while flow control is on. */
    PROTOCOL("protocol"),
    /** {@code src}: sender node name, lowercase. */
    SOURCE("src"),
    /** {@code srcuuid}: sender's 16-byte UUID, binary. */
    SOURCE_UUID("srcuuid"),
    /** {@code dest}: addressee node name. */
    DESTINATION("dest"),
    /** {@code destuuid}: addressee's 16-byte UUID, binary. */
    DESTINATION_UUID("destuuid"),
    /** {@code seq}: sequence number, lowercase hex; absent on {@code NS_*} types. */
    SEQ("seq"),
    /** {@code hg}: heartbeat generation, lowercase hex. */
    GENERATION("hg"),
    /** {@code ts}: creation time, lowercase hex seconds since the epoch. */
    TIMESTAMP("ts"),
    /** {@code ld}: first line of {@code /proc/loadavg}; absent on {@code NS_*} types. */
    LOAD("ld"),
    /** {@code ttl}: decimal hop count, never checked by 3.0.6. */
    TTL("ttl"),
    /** {@code auth}: inner {@code "<index> <hex>"} over the classic rendering. */
    AUTH("auth"),
    /** {@code ackseq}: acknowledged sequence number, hex. */
    ACK_SEQ("ackseq"),
    /** {@code firstseq}: first requested seq (decimal in {@code NS_rexmit}, hex in NAKs). */
    FIRST_SEQ("firstseq"),
    /** {@code lastseq}: last requested seq, decimal. */
    LAST_SEQ("lastseq"),
    /** {@code nodelist}: space-terminated node names in {@code repnodes}. */
    NODE_LIST("nodelist"),
    /** {@code delnodelist}: deleted node names in {@code repnodes}. */
    DELETED_NODE_LIST("delnodelist"),
    /** {@code rsc_hold}: {@code none}, {@code local}, {@code foreign}, {@code all} (or {@code failback}). */
    RESOURCES_HELD("rsc_hold"),
    /** {@code rtype}: resource report type, {@code full}. */
    RESOURCE_REPORT_TYPE("rtype"),
    /** {@code isstable}: {@code 0} or {@code 1}. */
    IS_STABLE("isstable"),
    /** {@code info}: free text ({@code me}, {@code other}, {@code done}, {@code mach_down}, …). */
    INFO("info"),
    /** {@code ipaddr}: resource group key in {@code ip-request}. */
    IP_ADDRESS("ipaddr"),
    /** {@code weown}: {@code yes} or {@code no}. */
    WE_OWN("weown"),
    /** {@code ok}: {@code OK} in {@code ip-request-resp}. */
    OK("ok"),
    /** {@code node}: the node a {@code stonith} message is about. */
    NODE("node"),
    /** {@code result}: STONITH result word. */
    RESULT("result"),
    /** {@code _compressed_payload}: compressed original message, binary. */
    COMPRESSED_PAYLOAD("_compressed_payload"),
    /** {@code _compression_algorithm}: e.g. {@code zlib}. */
    COMPRESSION_ALGORITHM("_compression_algorithm"),
    /** {@code cfg_haresources}: jheartbeat only, SHA-256 hex of the canonical haresources ({@code jhb-config}). */
    CONFIG_HARESOURCES("cfg_haresources"),
    /** {@code cfg_authkeys}: jheartbeat only, SHA-256 hex of the authkeys keys (never the keys themselves). */
    CONFIG_AUTHKEYS("cfg_authkeys"),
    /** {@code cfg_hacf}: jheartbeat only, SHA-256 hex of the cluster-relevant ha.cf settings. */
    CONFIG_HA_CF("cfg_hacf"),
    /** {@code grp_key}: jheartbeat only, a resource group's key (first resource) in {@code jhb-grpfail}. */
    GROUP_KEY("grp_key"),
    /** {@code grp_fail}: jheartbeat only, {@code start}, {@code stop} or {@code clear} in {@code jhb-grpfail}. */
    GROUP_FAILURE("grp_fail"),
    /** {@code maint_op}: jheartbeat only, {@code set}, {@code probe} or {@code runs} in {@code jhb-maint}. */
    MAINT_OP("maint_op"),
    /** {@code maint_ver}: jheartbeat only, the maintenance setting's version (decimal) in {@code jhb-maint}. */
    MAINT_VERSION("maint_ver"),
    /** {@code maint_cl}: jheartbeat only, cluster-wide maintenance {@code on} or {@code off} in {@code jhb-maint}. */
    MAINT_CLUSTER("maint_cl"),
    /** {@code maint_nodes}: jheartbeat only, nodes in maintenance (comma-separated, %-escaped). */
    MAINT_NODES("maint_nodes"),
    /** {@code maint_grps}: jheartbeat only, group keys in maintenance (comma-separated, %-escaped). */
    MAINT_GROUPS("maint_grps"),
    /** {@code maint_req}: jheartbeat only, the number of a probe request and of its answer (decimal). */
    MAINT_REQUEST("maint_req"),
    /** {@code maint_runs}: jheartbeat only, keys of the groups the sender found running on itself. */
    MAINT_RUNS("maint_runs"),
    /** {@code maint_yours}: jheartbeat only, keys of the groups the receiver's probe found running on it. */
    MAINT_YOURS("maint_yours"),
    /**
     * {@code cfg_groups}: jheartbeat only, per resource group its key, preferred node, definition
     * hash and claimed resource identities ({@code GroupDigest.encode}), at most 16 KiB.
     */
    CONFIG_GROUPS("cfg_groups"),
    /** {@code num_ping}: jheartbeat only, the sender's count of live ping nodes (decimal) in {@code jhb-ping}. */
    PING_COUNT("num_ping"),
    /**
     * {@code grp_states}: jheartbeat only, in {@code jhb-groups}: every resource group of the sender as
     * {@code STATE:KEY} (comma-separated, %-escaped; {@code -} for none), at most 16 KiB.
     */
    GROUP_STATES("grp_states");

    private static final Map<String, Field> BY_WIRE_NAME =
            Stream.of(values()).collect(Collectors.toUnmodifiableMap(Field::wireName, Function.identity()));

    private final String wireName;

    Field(String wireName) {
        this.wireName = wireName;
    }

    /** The exact, case-sensitive spelling on the wire. */
    public String wireName() {
        return wireName;
    }

    /**
     * @param wireName a field name as received, any string or null
     * @return the field, or empty if the name is not one of ours
     */
    public static Optional<Field> fromWire(String wireName) {
        return wireName == null ? Optional.empty() : Optional.ofNullable(BY_WIRE_NAME.get(wireName));
    }
}
