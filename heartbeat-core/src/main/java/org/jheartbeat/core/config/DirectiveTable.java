package org.jheartbeat.core.config;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every ha.cf directive of Heartbeat 3.0.6, one row each (STYLE rule 8): keyword, whether it takes
 * the whole rest of the line, its default, a description, and, if jheartbeat implements it, the
 * handler that applies it. Source: Heartbeat 3.0.6 {@code heartbeat/config.c} ({@code Directives[]},
 * {@code WLdirectives[]}), ha.cf(5), {@code heartbeat -D}; see facts F.2.
 *
 * <p>A word that is not a keyword here is an ERROR ({@code Illegal directive}). A keyword that is here
 * but not {@link #implemented()} is a WARNING: the line is ignored, never silently.
 * {@code hbaping} and {@code normalpoll} are not rows: Heartbeat 3.0.6 as shipped rejects them too.
 */
public enum DirectiveTable {
    NODE("node", false, null, "cluster member names; lowercased; jheartbeat expects exactly two", HaCfState::addNode),
    KEEPALIVE("keepalive", false, "1000ms", "interval between our status messages", HaCfState::setKeepalive),
    DEADTIME("deadtime", false, "30000ms", "silence after which a node is dead; must be > 2 x keepalive", HaCfState::setDeadtime),
    WARNTIME("warntime", false, "deadtime/2", "gap that logs 'Late heartbeat'; must be > 0 and < deadtime", HaCfState::setWarntime),
    INITDEAD("initdead", false, "derived from deadtime", "dead time until the cluster first comes up; >= deadtime", HaCfState::setInitdead),
    DEADPING("deadping", false, "deadtime", "dead time for ping nodes; must be > 2 x keepalive", HaCfState::setDeadping),
    UDPPORT("udpport", false, "694", "UDP port of bcast/ucast media; must precede the media lines", HaCfState::setUdpPort),
    BAUD("baud", false, "19200", "serial speed; must precede serial lines; once only", HaCfState::setBaud),
    BCAST("bcast", false, null, "UDP broadcast medium, one per interface", HaCfState::addBcast),
    UDP("udp", false, null, "old alias of bcast (Heartbeat warns and replaces it)", HaCfState::addBcastViaUdpAlias),
    MCAST("mcast", true, null, "UDP multicast medium: iface group port ttl(0..4) loop(0|1)", HaCfState::addMcast),
    UCAST("ucast", true, null, "UDP unicast medium: iface peer-ip-or-hostname", HaCfState::addUcast),
    MCAST6("mcast6", true, null, "IPv6 multicast medium", null),
    UCAST6("ucast6", true, null, "IPv6 unicast medium", null),
    SERIAL("serial", false, null, "serial medium, one per device path", HaCfState::addSerial),
    PING("ping", false, null, "ping pseudo-nodes, one per host", HaCfState::addPing),
    PING6("ping6", false, null, "IPv6 ping pseudo-nodes", null),
    PING_GROUP("ping_group", true, null, "ping group pseudo-node: name host...", HaCfState::addPingGroup),
    AUTO_FAILBACK("auto_failback", false, "legacy", "on, off or legacy (deprecated)", HaCfState::setAutoFailback),
    NICE_FAILBACK("nice_failback", false, null, "obsolete: 'on' means auto_failback off, 'off' means on",
            HaCfState::setNiceFailback),
    HOPFUDGE("hopfudge", false, "1", "only affects the ttl field", null),
    STONITH("stonith", true, null, "single STONITH device: type configfile", HaCfState::addStonith),
    STONITH_HOST("stonith_host", true, null, "STONITH device usable from a host: host|* type params...",
            HaCfState::addStonithHost),
    WATCHDOG("watchdog", false, null, "kernel watchdog device, written to from the loop; once only",
            HaCfState::setWatchdog),
    LOGFACILITY("logfacility", false, null, "syslog facility, or none", HaCfState::setLogfacility),
    LOGFILE("logfile", false, null, "file for info and above", HaCfState::setLogfile),
    DEBUGFILE("debugfile", false, null, "file for everything, debug included", HaCfState::setDebugfile),
    USE_LOGD("use_logd", false, null, "log through the logging daemon", null),
    CONN_LOGD_TIME("conn_logd_time", false, "60", "logd reconnect interval", null),
    SYSLOGMSGFMT("syslogmsgfmt", false, "true", "syslog-style lines in log files", null),
    LOG_BADPACK("log_badpack", false, "true", "log bad packets and authentication failures", null),
    DEBUG("debug", false, "0", "debug level 0..255", null),
    MSGFMT("msgfmt", false, "classic", "classic or netstring; controls the inner auth field", null),
    COMPRESSION("compression", false, "zlib", "compression plugin", null),
    COMPRESSION_THRESHOLD("compression_threshold", false, "2", "compression threshold in KiB", null),
    TRADITIONAL_COMPRESSION("traditional_compression", false, "no", "compress whole messages", null),
    MAX_REXMIT_DELAY("max_rexmit_delay", false, "250", "retransmit request pacing in ms", null),
    HBGENMETHOD("hbgenmethod", false, "file", "generation source: file or time", null),
    UUIDFROM("uuidfrom", false, "file", "UUID source: file or nodename", null),
    REALTIME("realtime", false, "true", "real-time scheduling", null),
    RTPRIO("rtprio", false, null, "SCHED_FIFO priority", null),
    MEMRESERVE("memreserve", false, "6500", "preallocated memory in KiB", null),
    COREDUMPS("coredumps", false, "true", "allow core dumps", null),
    COREROOT("coreroot", false, null, "core dump directory", null),
    CLUSTER("cluster", false, "linux-ha", "cluster name (informational)", null),
    QUORUM_SERVER("quorum_server", false, null, "quorum server host", null),
    AUTOJOIN("autojoin", false, "none", "none, other or any; must be none in R1 mode", null),
    APIAUTH("apiauth", true, null, "API client permissions: client uid=... gid=...", null),
    RESPAWN("respawn", true, null, "child process to respawn: user /path [args]; only ipfail is understood",
            HaCfState::addRespawn),
    FAILFAST("failfast", true, null, "like respawn, but reboot if the child dies", null),
    ENV("env", false, null, "NAME=value exported as HA_NAME to children", null),
    USE_APPHBD("use_apphbd", false, null, "register with apphbd", null),
    CRM("crm", false, "off", "Pacemaker mode; jheartbeat runs R1 (haresources) only: crm no", (s, v, l) -> s.setCrm("crm", v, l)),
    PACEMAKER("pacemaker", false, "off", "alias of crm; jheartbeat accepts only off", (s, v, l) -> s.setCrm("pacemaker", v, l)),
    CRM_DAEMON_DIR("crm_daemon_dir", false, null, "Pacemaker only", null),
    CRMD_SPAWNS_PENGINE("crmd_spawns_pengine", false, null, "Pacemaker only", null),
    RECORD_CONFIG_CHANGES("record_config_changes", false, "on", "Pacemaker only", null),
    RECORD_PENGINE_INPUTS("record_pengine_inputs", false, "on", "Pacemaker only", null),
    ENABLE_CONFIG_WRITES("enable_config_writes", false, "on", "Pacemaker only", null);

    private static final Map<String, DirectiveTable> BY_KEYWORD = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(DirectiveTable::keyword, Function.identity()));

    private final String keyword;
    private final boolean wholeLine;
    private final String defaultValue;
    private final String description;
    private final DirectiveHandler handler;

    DirectiveTable(String keyword, boolean wholeLine, String defaultValue, String description,
                   DirectiveHandler handler) {
        this.keyword = keyword;
        this.wholeLine = wholeLine;
        this.defaultValue = defaultValue;
        this.description = description;
        this.handler = handler;
    }

    /** The keyword as written in ha.cf (case-sensitive, as Heartbeat compares it). */
    public String keyword() {
        return keyword;
    }

    /**
     * Whether the directive receives the raw rest of the line ({@code ucast eth1 10.0.0.2}) instead of
     * being applied once per blank/comma-separated token ({@code node a b}).
     */
    public boolean wholeLine() {
        return wholeLine;
    }

    /**
     * Whether one line may give several values, each applied in turn ({@code node a b}, {@code bcast eth0 eth1},
     * {@code serial}, {@code ping}, {@code env}): Heartbeat 3.0.6 adds one node, medium or variable per word.
     * Every other ordinary directive takes one value: Heartbeat would apply each word in turn all the same and
     * keep the last ({@code logfile a b} logs to {@code b}), or refuse the second ({@code baud}, {@code watchdog});
     * {@link HaCfParser} makes a second word an error at its line.
     */
    public boolean takesList() {
        return switch (this) {
            case NODE, BCAST, UDP, SERIAL, PING, PING6, ENV -> true;
            default -> false;
        };
    }

    /** Whether jheartbeat applies this directive; if not, its lines are ignored with a WARNING. */
    public boolean implemented() {
        return handler != null;
    }

    /** Heartbeat 3.0.6's default as {@code heartbeat -D} shows it, if it has one. */
    public Optional<String> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    /** One line saying what the directive does and its constraints. */
    public String description() {
        return description;
    }

    /** The handler of an implemented directive; null otherwise. */
    DirectiveHandler handler() {
        return handler;
    }

    /**
     * Looks a keyword up, case-sensitively.
     *
     * @param keyword the first token of an ha.cf line
     * @return the row, or empty for a word Heartbeat 3.0.6 would call an illegal directive
     */
    public static Optional<DirectiveTable> lookup(String keyword) {
        return Optional.ofNullable(BY_KEYWORD.get(keyword));
    }
}
