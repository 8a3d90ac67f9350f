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
    private static final Set<String> FACILITIES = Set.of("auth", "authpriv", "cron", "daemon", "ftp", "kern",
            "lpr", "mail", "news", "syslog", "user", "uucp", "local0", "local1", "local2", "local3", "local4",
            "local5", "local6", "local7", "none");

    private final Path file;
    private final List<ConfigDiagnostic> diagnostics;
    private HaCf.Setting<Long> keepalive;
    private HaCf.Setting<Long> deadtime;
    private HaCf.Setting<Long> warntime;
    private HaCf.Setting<Long> initdead;
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

    HaCfState(Path file, List<ConfigDiagnostic> diagnostics) {
        this.file = file;
        this.diagnostics = diagnostics;
    }

    HaCf toHaCf() {
        return new HaCf(file, Optional.ofNullable(keepalive), Optional.ofNullable(deadtime),
                Optional.ofNullable(warntime), Optional.ofNullable(initdead), udpPort, nodes, media,
                Optional.ofNullable(autoFailback), new LogSettings(Optional.ofNullable(logfile),
                Optional.ofNullable(debugfile), Optional.ofNullable(logfacility)), stonith);
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

    private Optional<HaCf.Setting<Long>> time(String directive, String value, int line) {
        try {
            return Optional.of(new HaCf.Setting<>(HaDurations.parseMillis(value), line));
        } catch (InvalidDurationException e) {
            error(line, directive + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    void setUdpPort(String value, int line) {
        Optional<MediumDecl> firstUdp = media.stream().filter(m -> !(m instanceof MediumDecl.Serial)).findFirst();
        if (firstUdp.isPresent()) {
            error(line, "udpport must come before the media lines: move 'udpport " + value
                    + "' above line " + firstUdp.get().line() + " (Heartbeat would silently ignore it for the"
                    + " media already declared)");
            return;
        }
        int port = value.matches("[0-9]{1,5}") ? Integer.parseInt(value) : -1;
        if (port < 1 || port > 65535) {
            error(line, "invalid udpport [" + value + "]: expected a port number 1..65535");
            return;
        }
        udpPort = port;
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
     * an error; one that does not exist (yet) is a warning, since the daemon checks again at start.
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
        java.io.File f = new java.io.File(device);
        if (!f.exists()) {
            warning(line, "serial device " + device + " does not exist now; the daemon will not start without it");
        } else if (!isCharDevice(f.toPath())) {
            error(line, "serial device " + device + " is not a character device (a tty is expected)");
            return;
        }
        media.add(new MediumDecl.Serial(device, baud, line));
    }

    private static boolean isCharDevice(Path p) {
        try {
            Object mode = java.nio.file.Files.getAttribute(p, "unix:mode");
            return mode instanceof Integer m && (m & 0170000) == 0020000;
        } catch (java.io.IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return true;
        }
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
        if (!Ipv4.isLiteralOrHostName(words[1])) {
            error(line, "ucast peer [" + words[1] + "] is neither an IPv4 address nor a host name");
            return;
        }
        if (words.length > 2) {
            warning(line, "ucast takes one peer per line; extra text after [" + words[1] + "] ignored");
        }
        media.add(new MediumDecl.Ucast(words[0], words[1], udpPort, line));
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
        if (!FACILITIES.contains(value.toLowerCase(Locale.ROOT))) {
            error(line, "invalid logfacility [" + value + "]: expected a syslog facility (daemon, local0..local7, ...)"
                    + " or none");
            return;
        }
        logfacility = value.toLowerCase(Locale.ROOT);
    }

    void setCrm(String directive, String value, int line) {
        if (parseBoolean(value).filter(on -> !on).isEmpty()) {
            error(line, directive + " [" + value + "] is not supported: jheartbeat runs in R1 (haresources)"
                    + " mode only; use '" + directive + " no'");
        }
    }
}
