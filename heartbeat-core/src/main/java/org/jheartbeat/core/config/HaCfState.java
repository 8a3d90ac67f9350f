package org.jheartbeat.core.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The mutable state of one ha.cf parse: what {@link DirectiveTable} handlers write into, then frozen
 * into an {@link HaCf}. Package-private; rules are Heartbeat 3.0.6 {@code config.c} setters unless a
 * message says jheartbeat is stricter.
 */
final class HaCfState {
    private static final Pattern IFACE = Pattern.compile("[^/\\s,]{1,15}");
    /**
     * Heartbeat 3.0.6's facility names ({@code cl_syslogfac_str2int} compares with {@code strcmp}
     * against glibc's {@code facilitynames}, so only lower case), plus {@code none}.
     */
    private static final Set<String> FACILITIES = Set.of("auth", "authpriv", "cron", "daemon", "ftp", "kern",
            "lpr", "mail", "news", "security", "syslog", "user", "uucp", "local0", "local1", "local2", "local3",
            "local4", "local5", "local6", "local7", "none");
    /** Highest multicast TTL Heartbeat 3.0.6's mcast plugin accepts ({@code mcast_parse}: {@code ttl > 4} is refused). */
    static final int MAX_MCAST_TTL = 4;

    private final Path file;
    private final List<ConfigDiagnostic> diagnostics;
    private HaCf.Setting<Long> keepalive;
    private HaCf.Setting<Long> deadtime;
    private HaCf.Setting<Long> warntime;
    private HaCf.Setting<Long> initdead;
    private HaCf.Setting<Long> deadping;
    private int crmLine;
    private HaCf.Setting<FailbackPolicy> autoFailback;
    private int udpPort = ClusterConfig.DEFAULT_UDP_PORT;
    private int baud = MediumDecl.Serial.DEFAULT_BAUD;
    private int baudLine;
    private final List<NodeDecl> nodes = new ArrayList<>();
    private final List<MediumDecl> media = new ArrayList<>();
    private final List<StonithDecl> stonith = new ArrayList<>();
    private final Set<Integer> udpAliasWarned = new HashSet<>();
    private Path logfile;
    private Path debugfile;
    private String logfacility;
    private final List<PingNodeDecl> pingNodes = new ArrayList<>();
    private Integer ipfailLine;
    private HaCf.Setting<Path> watchdog;

    HaCfState(Path file, List<ConfigDiagnostic> diagnostics) {
        this.file = file;
        this.diagnostics = diagnostics;
    }

    /** @param rejected the directives with a line refused by an error ({@link HaCf#rejected()}) */
    HaCf toHaCf(Set<String> rejected) {
        return new HaCf(file, Optional.ofNullable(keepalive), Optional.ofNullable(deadtime),
                Optional.ofNullable(warntime), Optional.ofNullable(initdead), udpPort, nodes, media,
                Optional.ofNullable(autoFailback), new LogSettings(Optional.ofNullable(logfile),
                Optional.ofNullable(debugfile), Optional.ofNullable(logfacility)), stonith,
                Optional.ofNullable(deadping), pingNodes, Optional.ofNullable(ipfailLine), Optional.ofNullable(watchdog),
                rejected);
    }

    void error(int line, String message) {
        diagnostics.add(ConfigDiagnostic.error(file, line, message));
    }

    void warning(int line, String message) {
        diagnostics.add(ConfigDiagnostic.warning(file, line, message));
    }

    /** Heartbeat's booleans (cl_str_to_boolean): true/on/yes/y/1 and false/off/no/n/0, any case. */
    static Optional<Boolean> parseBoolean(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "true", "on", "yes", "y", "1" -> Optional.of(true);
            case "false", "off", "no", "n", "0" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    void addNode(String value, int line) {
        NodeName name;
        try {
            name = NodeName.of(value);
        } catch (IllegalArgumentException e) {
            error(line, "invalid node name [" + value + "]: 1.." + NodeName.MAX_LENGTH + " characters expected");
            return;
        }
        for (NodeDecl n : nodes) {
            if (n.name().equals(name)) {
                warning(line, "node [" + name + "] is already listed on line " + n.line() + "; duplicate ignored");
                return;
            }
        }
        nodes.add(new NodeDecl(name, line));
    }

    void setKeepalive(String value, int line) {
        keepalive = time("keepalive", value, line).orElse(keepalive);
    }

    void setDeadtime(String value, int line) {
        deadtime = time("deadtime", value, line).orElse(deadtime);
    }

    void setWarntime(String value, int line) {
        warntime = time("warntime", value, line).orElse(warntime);
    }

    void setInitdead(String value, int line) {
        initdead = time("initdead", value, line).orElse(initdead);
    }

    void setDeadping(String value, int line) {
        deadping = time("deadping", value, line).orElse(deadping);
    }

    private Optional<HaCf.Setting<Long>> time(String directive, String value, int line) {
        try {
            return Optional.of(new HaCf.Setting<>(HaDurations.parseMillis(value), line));
        } catch (InvalidDurationException e) {
            error(line, directive + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * {@code udpport N}: the port of the bcast and ucast media declared after it. After such a medium,
     * Heartbeat silently keeps the old port for it; here that is a WARNING when the value equals the
     * port those media already use (nothing changes) and an ERROR when it differs. mcast lines carry
     * their own port and serial lines none, so they do not count.
     */
    void setUdpPort(String value, int line) {
        int port = value.matches("[0-9]{1,5}") ? Integer.parseInt(value) : -1;
        if (port < 1 || port > 65535) {
            error(line, "invalid udpport [" + value + "]: expected a port number 1..65535");
            return;
        }
        Optional<MediumDecl> firstUdp = media.stream()
                .filter(m -> m instanceof MediumDecl.Ucast || m instanceof MediumDecl.Bcast).findFirst();
        if (firstUdp.isEmpty()) {
            udpPort = port;
            return;
        }
        if (port == udpPort) {
            warning(line, "udpport " + value + " comes after the media lines (first on line " + firstUdp.get().line()
                    + "); Heartbeat ignores it for them, and it equals the port they already use, so nothing"
                    + " changes: move it above line " + firstUdp.get().line());
            return;
        }
        error(line, "udpport must come before the media lines: move 'udpport " + value + "' above line "
                + firstUdp.get().line() + " (Heartbeat would silently ignore it and keep port " + udpPort
                + " for the media already declared)");
    }

    /** {@code baud N}: once only, before any {@code serial} line, one of Heartbeat's rates. */
    void setBaud(String value, int line) {
        if (baudLine > 0) {
            error(line, "baud may appear only once; it was already set on line " + baudLine);
            return;
        }
        Optional<MediumDecl> firstSerial = media.stream().filter(m -> m instanceof MediumDecl.Serial).findFirst();
        if (firstSerial.isPresent()) {
            error(line, "baud must come before the serial lines: move 'baud " + value + "' above line "
                    + firstSerial.get().line() + " (Heartbeat would silently use 19200)");
            return;
        }
        int rate = value.matches("[0-9]{4,6}") ? Integer.parseInt(value) : -1;
        if (!MediumDecl.Serial.RATES.contains(rate)) {
            error(line, "invalid baudrate [" + value + "]: use one of " + MediumDecl.Serial.RATES);
            return;
        }
        baud = rate;
        baudLine = line;
    }

    /**
     * {@code serial DEVICE}: an absolute path. A path that exists but is not a character device is
     * an error; one that does not exist is left to the checks on the machine (an error there).
     */
    void addSerial(String device, int line) {
        if (!device.startsWith("/")) {
            error(line, "serial device [" + device + "] must be a full path, e.g. /dev/ttyS0");
            return;
        }
        for (MediumDecl m : media) {
            if (m instanceof MediumDecl.Serial s && s.device().equals(device)) {
                error(line, "serial device " + device + " is already declared on line " + m.line());
                return;
            }
        }
        // a missing one is the machine checks' error, not the file's: it may be meant for another machine
        java.io.File f = new java.io.File(device);
        if (f.exists() && !DeviceFiles.isCharDevice(f.toPath())) {
            error(line, "serial device " + device + " is not a character device (a tty is expected)");
            return;
        }
        media.add(new MediumDecl.Serial(device, baud, line));
    }

    /**
     * {@code ping HOST...}: one ping pseudo-node per host, named by the host (Heartbeat 3.0.6 ha.cf(5));
     * applied once per host. A host must be an IPv4 address or a host name; a name used twice is an error.
     */
    void addPing(String host, int line) {
        if (checkPingHost("ping", host, line) && checkPingName(host, line)) {
            pingNodes.add(new PingNodeDecl(host, List.of(host), false, line));
        }
    }

    /**
     * {@code ping_group NAME HOST...}: one pseudo-node named NAME, up while any host answers
     * (Heartbeat 3.0.6 ha.cf(5)).
     */
    void addPingGroup(String remainder, int line) {
        String[] w = remainder.trim().split("[ \t]+");
        if (w.length < 2 || w[0].isEmpty()) {
            error(line, "ping_group needs a name and at least one host: ping_group NAME HOST [HOST...],"
                    + " e.g. ping_group routers 198.18.0.1 198.18.0.2");
            return;
        }
        if (!checkPingName(w[0], line)) {
            return;
        }
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i < w.length; i++) {
            if (!checkPingHost("ping_group " + w[0], w[i], line)) {
                return;
            }
            if (!hosts.contains(w[i])) {
                hosts.add(w[i]);
            }
        }
        pingNodes.add(new PingNodeDecl(w[0], hosts, true, line));
    }

    private boolean checkPingHost(String directive, String host, int line) {
        if (Ipv4.isLiteralOrHostName(host)) {
            return true;
        }
        error(line, directive + ": [" + host + "] is neither an IPv4 address nor a host name");
        return false;
    }

    private boolean checkPingName(String name, int line) {
        for (PingNodeDecl p : pingNodes) {
            if (p.name().equals(name)) {
                error(line, "ping node [" + name + "] is already declared on line " + p.line()
                        + "; each ping node or ping_group name may appear once");
                return false;
            }
        }
        return true;
    }

    /**
     * {@code respawn USER /PATH [ARGS]}: Heartbeat starts and restarts the program. jheartbeat runs no
     * child processes; a program whose file name is {@code ipfail} turns on the built-in ipfail rule
     * (a node that sees fewer ping nodes than its peer hands its groups over), any other is a WARNING
     * and the line is ignored.
     */
    void addRespawn(String remainder, int line) {
        String[] w = remainder.trim().split("[ \t]+");
        if (w.length < 2 || w[0].isEmpty()) {
            error(line, "respawn needs a user and a program: respawn hacluster /usr/lib/heartbeat/ipfail");
            return;
        }
        if (!w[1].startsWith("/")) {
            error(line, "respawn program [" + w[1] + "] must be a full path, e.g. /usr/lib/heartbeat/ipfail");
            return;
        }
        String base = w[1].substring(w[1].lastIndexOf('/') + 1);
        if (base.equals("ipfail")) {
            ipfailLine = line;
            return;
        }
        warning(line, "respawn " + w[1] + ": jheartbeat does not run respawned programs (only ipfail is"
                + " understood, as a built-in rule); line ignored: run the program as a service of its own");
    }

    /** {@code stonith TYPE CONFIGFILE} (Heartbeat 3.0.6 ha.cf(5)). */
    void addStonith(String remainder, int line) {
        String[] w = remainder.trim().split("[ \t]+");
        if (w.length != 2 || w[0].isEmpty()) {
            error(line, "stonith needs a device type and its parameter file: stonith TYPE /etc/ha.d/FILE");
            return;
        }
        if (!w[1].startsWith("/")) {
            error(line, "stonith parameter file [" + w[1] + "] must be a full path");
            return;
        }
        stonith.add(new StonithDecl(Optional.empty(), w[0], List.of(), Optional.of(Path.of(w[1])), line));
    }

    /** {@code stonith_host FROMNODE|* TYPE PARAM...} (Heartbeat 3.0.6 ha.cf(5)). */
    void addStonithHost(String remainder, int line) {
        String[] w = remainder.trim().split("[ \t]+");
        if (w.length < 2 || w[0].isEmpty()) {
            error(line, "stonith_host needs a node (or *), a device type and its parameters:"
                    + " stonith_host node1 apcsmart /dev/ttyS1 node2");
            return;
        }
        Optional<NodeName> from;
        try {
            from = w[0].equals("*") ? Optional.empty() : Optional.of(NodeName.of(w[0]));
        } catch (IllegalArgumentException e) {
            error(line, "stonith_host: invalid node name [" + w[0] + "]");
            return;
        }
        stonith.add(new StonithDecl(from, w[1], List.of(w).subList(2, w.length), Optional.empty(), line));
    }

    void addBcast(String iface, int line) {
        if (checkIface("bcast", iface, line)) {
            media.add(new MediumDecl.Bcast(iface, udpPort, line));
        }
    }

    void addBcastViaUdpAlias(String iface, int line) {
        if (udpAliasWarned.add(line)) {
            warning(line, "directive 'udp' replaced by 'bcast'");
        }
        addBcast(iface, line);
    }

    void addUcast(String remainder, int line) {
        String[] words = remainder.split("[ \t]+");
        if (words.length < 2) {
            error(line, "ucast needs an interface and a peer: ucast IFACE PEER-IP-OR-HOSTNAME");
            return;
        }
        if (!checkIface("ucast", words[0], line)) {
            return;
        }
        if (Ipv4.looksNumeric(words[1])) {
            try {
                Ipv4.parse(words[1]);
            } catch (IllegalArgumentException e) {
                error(line, "ucast peer: " + e.getMessage());
                return;
            }
        } else if (!Ipv4.isLiteralOrHostName(words[1])) {
            error(line, "ucast peer [" + words[1] + "] is neither an IPv4 address nor a host name");
            return;
        }
        if (words.length > 2) {
            warning(line, "ucast takes one peer per line; extra text after [" + words[1] + "] ignored");
        }
        media.add(new MediumDecl.Ucast(words[0], words[1], udpPort, line));
    }

    /**
     * {@code mcast IFACE GROUP PORT TTL LOOP}, with Heartbeat 3.0.6's checks ({@code mcast.c}
     * {@code mcast_parse}): all five are required; GROUP must be a multicast address (224.0.0.0/4);
     * PORT 1..65535 (mcast does not use udpport); TTL 0..4; LOOP 0 or 1. Extra words are ignored, with
     * a WARNING.
     */
    void addMcast(String remainder, int line) {
        String[] w = remainder.trim().split("[ \t]+");
        String usage = "; write mcast IFACE GROUP PORT TTL LOOP, e.g. mcast eth1 239.0.0.1 694 1 0";
        String[] names = {"interface", "multicast group", "port", "ttl", "loop"};
        if (w.length < 5) {
            error(line, "mcast is missing its " + names[w.length] + usage);
            return;
        }
        if (!checkIface("mcast", w[0], line)) {
            return;
        }
        int group;
        try {
            group = Ipv4.parse(w[1]);
        } catch (IllegalArgumentException e) {
            error(line, "mcast [" + w[0] + "] bad addr [" + w[1] + "]: " + e.getMessage() + usage);
            return;
        }
        if ((group & 0xf0000000) != 0xe0000000) {
            error(line, "mcast [" + w[0] + "] bad addr [" + w[1] + "]: the group must be a multicast address"
                    + " (224.0.0.0 to 239.255.255.255; 239.0.0.0/8 is for local use, e.g. 239.0.0.1)");
            return;
        }
        int port = w[2].matches("[0-9]{1,5}") ? Integer.parseInt(w[2]) : -1;
        if (port < 1 || port > 65535) {
            error(line, "mcast [" + w[0] + "] bad port [" + w[2] + "]: expected a port number 1..65535, e.g. 694");
            return;
        }
        int ttl = w[3].matches("[0-9]{1,3}") ? Integer.parseInt(w[3]) : -1;
        if (ttl < 0 || ttl > MAX_MCAST_TTL) {
            error(line, "mcast [" + w[0] + "] bad ttl [" + w[3] + "]: Heartbeat accepts 0.." + MAX_MCAST_TTL
                    + " (1 keeps the packets on the local network)");
            return;
        }
        if (!w[4].equals("0") && !w[4].equals("1")) {
            error(line, "mcast [" + w[0] + "] bad loop [" + w[4] + "]: expected 0 (do not loop our packets back"
                    + " to us) or 1");
            return;
        }
        for (MediumDecl m : media) {
            if (m instanceof MediumDecl.Mcast other && other.iface().equals(w[0]) && other.group().equals(w[1])
                    && other.port() == port) {
                error(line, "mcast " + w[0] + " " + w[1] + " port " + port + " is already declared on line "
                        + m.line());
                return;
            }
        }
        if (w.length > 5) {
            warning(line, "mcast takes five values; extra text after [" + w[4] + "] ignored (as Heartbeat)");
        }
        media.add(new MediumDecl.Mcast(w[0], w[1], port, ttl, w[4].equals("1"), line));
    }

    private boolean checkIface(String directive, String iface, int line) {
        if (IFACE.matcher(iface).matches()) {
            return true;
        }
        error(line, directive + ": invalid interface name [" + iface + "]");
        return false;
    }

    void setAutoFailback(String value, int line) {
        Optional<FailbackPolicy> policy = value.equalsIgnoreCase("legacy") ? Optional.of(FailbackPolicy.LEGACY)
                : parseBoolean(value).map(on -> on ? FailbackPolicy.ON : FailbackPolicy.OFF);
        if (policy.isEmpty()) {
            error(line, "invalid auto_failback [" + value + "]: expected on, off or legacy");
            return;
        }
        autoFailback = new HaCf.Setting<>(policy.get(), line);
    }

    /**
     * {@code nice_failback on|off}, the obsolete spelling: {@code on} (do not fail back) means
     * {@code auto_failback off} and {@code off} means {@code auto_failback on}, with a WARNING naming
     * the replacement. Heartbeat 3.0.6 logs it as obsolete too (and, by a bug, reads it as
     * {@code legacy} unless an {@code auto_failback} line came first).
     */
    void setNiceFailback(String value, int line) {
        Optional<Boolean> nice = parseBoolean(value);
        if (nice.isEmpty()) {
            error(line, "invalid nice_failback [" + value + "]: it is obsolete anyway; write 'auto_failback on'"
                    + " or 'auto_failback off'");
            return;
        }
        String replacement = nice.get() ? "off" : "on";
        warning(line, "nice_failback is obsolete: 'nice_failback " + value + "' is read as 'auto_failback "
                + replacement + "'; write 'auto_failback " + replacement + "' instead (Heartbeat 3.0.6 itself"
                + " would read this line as 'auto_failback legacy' unless an auto_failback line came first)");
        autoFailback = new HaCf.Setting<>(nice.get() ? FailbackPolicy.OFF : FailbackPolicy.ON, line);
    }

    /** {@code watchdog DEVICE}: once only, checked by {@link WatchdogDirective}. */
    void setWatchdog(String value, int line) {
        watchdog = WatchdogDirective.apply(this, watchdog, value, line);
    }

    void setLogfile(String value, int line) {
        logfile = path("logfile", value, line).orElse(logfile);
    }

    void setDebugfile(String value, int line) {
        debugfile = path("debugfile", value, line).orElse(debugfile);
    }

    private Optional<Path> path(String directive, String value, int line) {
        try {
            return Optional.of(Path.of(value));
        } catch (InvalidPathException e) {
            error(line, directive + ": invalid path [" + value + "]");
            return Optional.empty();
        }
    }

    void setLogfacility(String value, int line) {
        if (!FACILITIES.contains(value)) {
            String lower = value.toLowerCase(Locale.ROOT);
            error(line, "Log facility(" + value + ") not valid: " + (FACILITIES.contains(lower)
                    ? "facility names are lower case, as in Heartbeat's table; write 'logfacility " + lower + "'"
                    : "expected a syslog facility (daemon, local0..local7, ...) or none"));
            return;
        }
        logfacility = value;
    }

    /** {@code crm}/{@code pacemaker}: off only (R1 mode), and at most once between them, as Heartbeat. */
    void setCrm(String directive, String value, int line) {
        if (crmLine > 0) {
            error(line, "pacemaker/crm directive used multiple times! (first on line " + crmLine + "); keep only one"
                    + " 'crm no' line");
            return;
        }
        crmLine = line;
        if (parseBoolean(value).filter(on -> !on).isEmpty()) {
            error(line, directive + " [" + value + "] is not supported: jheartbeat runs in R1 (haresources)"
                    + " mode only; use '" + directive + " no'");
        }
    }
}
