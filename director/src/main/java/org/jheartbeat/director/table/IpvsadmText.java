package org.jheartbeat.director.table;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.control.JsonText;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;

/**
 * ipvsadm 1.31's text formats, both ways: the {@code -L -n} listing (default, {@code --stats},
 * {@code --rate}), {@code -c} connections and {@code -S -n} save lines, printed byte for byte as
 * ipvsadm prints them and read back from ipvsadm's output (facts {@code lvs.md} §4.2: format
 * strings {@code %-33s}, {@code "  -> %-28s %-7s %-6d %-10u %-10u"}, the 9-wide number scaler).
 */
public final class IpvsadmText {
    /** The version line ipvsadm prints for the kernel's IPVS 1.2.1 with the default 4096 buckets. */
    public static final String VERSION_LINE = "IP Virtual Server version 1.2.1 (size=4096)";

    private IpvsadmText() {
    }

    /** {@code ipvsadm -L -n} in the given view, three header lines first. */
    public static String list(TableSnapshot t, ListView view) {
        StringBuilder sb = new StringBuilder();
        sb.append(VERSION_LINE).append('\n');
        switch (view) {
            case DEFAULT -> sb.append("Prot LocalAddress:Port Scheduler Flags\n")
                    .append("  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n");
            case STATS -> sb.append(String.format("%-33s %8s %8s %8s %8s %8s%n", "Prot LocalAddress:Port", "Conns",
                    "InPkts", "OutPkts", "InBytes", "OutBytes")).append("  -> RemoteAddress:Port\n");
            case RATE -> sb.append(String.format("%-33s %8s %8s %8s %8s %8s%n", "Prot LocalAddress:Port", "CPS",
                    "InPPS", "OutPPS", "InBPS", "OutBPS")).append("  -> RemoteAddress:Port\n");
        }
        for (TableService s : t.services()) {
            String name = serviceName(s.spec().key());
            switch (view) {
                case DEFAULT -> sb.append(name).append(' ').append(serviceFlags(s.spec())).append('\n');
                case STATS -> sb.append(String.format("%-33s", name)).append(numbers(s.stats())).append('\n');
                case RATE -> sb.append(String.format("%-33s", name)).append(rates(s.rate())).append('\n');
            }
            for (TableReal r : s.reals()) {
                String addr = String.format("  -> %-28s", r.spec().endpoint());
                switch (view) {
                    case DEFAULT -> sb.append(String.format("%s %-7s %-6d %-10d %-10d%n", addr,
                            r.spec().forward().listName(), r.spec().weight(), r.activeConns(), r.inactConns()));
                    case STATS -> sb.append(addr).append(numbers(r.stats())).append('\n');
                    case RATE -> sb.append(addr).append(rates(r.rate())).append('\n');
                }
            }
        }
        return sb.toString().replace("\r\n", "\n");
    }

    /** {@code ipvsadm -L -n -c}: the connection entries. */
    public static String connections(TableSnapshot t) {
        StringBuilder sb = new StringBuilder();
        sb.append("IPVS connection entries\n");
        sb.append("pro expire state       source             virtual            destination\n");
        for (ConnectionEntry c : t.connections()) {
            sb.append(String.format("%-3s %-6s %-11s %-18s %-18s %s%n", c.protocol(),
                    String.format("%02d:%02d", c.expireSeconds() / 60, c.expireSeconds() % 60), c.state(), c.source(),
                    c.virtual(), c.destination()));
        }
        return sb.toString().replace("\r\n", "\n");
    }

    /** {@code ipvsadm -S -n}: one {@code -A} line per service followed by its {@code -a} lines. */
    public static String save(TableSnapshot t) {
        StringBuilder sb = new StringBuilder();
        for (TableService s : t.services()) {
            sb.append(String.join(" ", new TableCommand.AddService(s.spec()).args())).append('\n');
            for (TableReal r : s.reals()) {
                List<String> a = new ArrayList<>(List.of("-a"));
                a.addAll(s.spec().key().ipvsadmArgs());
                a.addAll(List.of("-r", r.spec().endpoint().toString(), r.spec().forward().ipvsadmOption(), "-w",
                        Integer.toString(r.spec().weight())));
                if (r.spec().upperThreshold() > 0) {
                    a.addAll(List.of("-x", Integer.toString(r.spec().upperThreshold())));
                }
                if (r.spec().lowerThreshold() > 0) {
                    a.addAll(List.of("-y", Integer.toString(r.spec().lowerThreshold())));
                }
                sb.append(String.join(" ", a)).append('\n');
            }
        }
        return sb.toString();
    }

    /** The service column: {@code TCP  ip:port}, {@code FWM  1}, {@code FWM  1 IPv6}. */
    static String serviceName(ServiceKey k) {
        String base = String.format("%-4s %s", k.protocol().listName(), k.address());
        return k.protocol() == Protocol.FWM && k.ipv6() ? base + " IPv6" : base;
    }

    /** Scheduler, {@code (flags)}, {@code persistent N}, {@code mask M}, {@code ops}. */
    static String serviceFlags(ServiceSpec s) {
        StringBuilder sb = new StringBuilder(s.scheduler());
        s.schedFlags().ifPresent(f -> sb.append(" (").append(f).append(')'));
        s.persistent().ifPresent(p -> {
            sb.append(" persistent ").append(p);
            s.netmask().ifPresent(m -> sb.append(" mask ").append(m));
        });
        if (s.ops()) {
            sb.append(" ops");
        }
        return sb.toString();
    }

    private static String numbers(Counters c) {
        return largeNumber(c.conns()) + largeNumber(c.inPkts()) + largeNumber(c.outPkts()) + largeNumber(c.inBytes())
                + largeNumber(c.outBytes());
    }

    private static String rates(Counters c) {
        return String.format(" %8d %8d %8d", c.conns(), c.inPkts(), c.outPkts()) + largeNumber(c.inBytes())
                + largeNumber(c.outBytes());
    }

    /** ipvsadm's 9-wide number: exact below 1e8, then K, M, G, T. */
    static String largeNumber(long n) {
        if (n < 100_000_000L) {
            return String.format("%9d", n);
        } else if (n < 1_000_000_000L) {
            return String.format("%8dK", n / 1000);
        } else if (n < 100_000_000_000L) {
            return String.format("%8dM", n / 1_000_000);
        } else if (n < 100_000_000_000_000L) {
            return String.format("%8dG", n / 1_000_000_000L);
        }
        return String.format("%8dT", n / 1_000_000_000_000L);
    }

    /** Reads a 9-wide scaled number back (K/M/G/T multiply; the precision lost stays lost). */
    static long readLargeNumber(String s) {
        long mult = 1;
        char last = s.charAt(s.length() - 1);
        switch (last) {
            case 'K' -> mult = 1000L;
            case 'M' -> mult = 1_000_000L;
            case 'G' -> mult = 1_000_000_000L;
            case 'T' -> mult = 1_000_000_000_000L;
            default -> {
                return Long.parseLong(s);
            }
        }
        return Long.parseLong(s.substring(0, s.length() - 1)) * mult;
    }

    /** The JSON form of {@code hb lvs status --json}: services, reals, figures and connections. */
    public static String json(TableSnapshot t) {
        return JsonText.write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("services");
            for (TableService s : t.services()) {
                writeService(g, s);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("connections");
            for (ConnectionEntry c : t.connections()) {
                g.writeStartObject();
                g.writeStringField("protocol", c.protocol());
                g.writeNumberField("expire", c.expireSeconds());
                g.writeStringField("state", c.state());
                g.writeStringField("source", c.source());
                g.writeStringField("virtual", c.virtual());
                g.writeStringField("destination", c.destination());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }) + "\n";
    }

    private static void writeService(JsonGenerator g, TableService s) throws IOException {
        ServiceSpec sp = s.spec();
        g.writeStartObject();
        g.writeStringField("protocol", sp.key().protocol().configName());
        Optional<Endpoint> e = sp.key().endpoint();
        if (e.isPresent()) {
            g.writeStringField("address", e.get().host().replace("[", "").replace("]", ""));
            g.writeNumberField("port", e.get().port());
        } else {
            g.writeNumberField("fwmark", sp.key().fwmark());
            g.writeBooleanField("ipv6", sp.key().ipv6());
        }
        g.writeStringField("scheduler", sp.scheduler());
        if (sp.persistent().isPresent()) {
            g.writeNumberField("persistent", sp.persistent().get());
        }
        if (sp.netmask().isPresent()) {
            g.writeStringField("netmask", sp.netmask().get());
        }
        g.writeBooleanField("ops", sp.ops());
        if (sp.schedFlags().isPresent()) {
            g.writeStringField("schedflags", sp.schedFlags().get());
        }
        writeCounters(g, "stats", s.stats(), false);
        writeCounters(g, "rate", s.rate(), true);
        g.writeArrayFieldStart("reals");
        for (TableReal r : s.reals()) {
            g.writeStartObject();
            g.writeStringField("address", r.spec().endpoint().host().replace("[", "").replace("]", ""));
            g.writeNumberField("port", r.spec().endpoint().port());
            g.writeStringField("forward", r.spec().forward().configName());
            g.writeNumberField("weight", r.spec().weight());
            g.writeNumberField("upperThreshold", r.spec().upperThreshold());
            g.writeNumberField("lowerThreshold", r.spec().lowerThreshold());
            g.writeNumberField("activeConns", r.activeConns());
            g.writeNumberField("inactConns", r.inactConns());
            writeCounters(g, "stats", r.stats(), false);
            writeCounters(g, "rate", r.rate(), true);
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** {@code name:{conns..outbytes}}, or for a rate {@code name:{cps..outbps}} (ipvsadm's column names). */
    private static void writeCounters(JsonGenerator g, String name, Counters c, boolean rate) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField(rate ? "cps" : "conns", c.conns());
        g.writeNumberField(rate ? "inpps" : "inpkts", c.inPkts());
        g.writeNumberField(rate ? "outpps" : "outpkts", c.outPkts());
        g.writeNumberField(rate ? "inbps" : "inbytes", c.inBytes());
        g.writeNumberField(rate ? "outbps" : "outbytes", c.outBytes());
        g.writeEndObject();
    }

    // ---- reading ipvsadm's output ----

    /** A line ipvsadm printed that this reader does not understand. */
    public static final class FormatException extends Exception {
        public FormatException(String message) {
            super(message);
        }
    }

    /**
     * Reads {@code ipvsadm -S -n} output.
     *
     * @throws FormatException on a line that is not an {@code -A} or {@code -a} line
     */
    public static TableSnapshot readSave(String text) throws FormatException {
        Map<ServiceKey, ServiceSpec> specs = new LinkedHashMap<>();
        Map<ServiceKey, List<TableReal>> reals = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            TableCommand c = IpvsadmSyntax.parse(List.of(line.trim().split("\\s+")))
                    .orElseThrow(() -> new FormatException("unexpected line in ipvsadm -S -n output: " + line));
            if (c instanceof TableCommand.AddService a) {
                specs.put(a.service(), a.spec());
                reals.put(a.service(), new ArrayList<>());
            } else if (c instanceof TableCommand.SetReal s && !s.edit() && reals.containsKey(s.service())) {
                reals.get(s.service()).add(TableReal.idle(s.real()));
            } else {
                throw new FormatException("unexpected line in ipvsadm -S -n output: " + line);
            }
        }
        List<TableService> out = new ArrayList<>();
        specs.forEach((k, s) -> out.add(new TableService(s, reals.get(k), Counters.ZERO, Counters.ZERO)));
        return new TableSnapshot(out, List.of());
    }

    /**
     * Reads {@code ipvsadm -L -n} output (skipping the three header lines, as ldirectord does).
     *
     * @throws FormatException on a line that is neither a service nor a real-server line
     */
    public static TableSnapshot readList(String text) throws FormatException {
        String[] lines = text.split("\n");
        List<TableService> out = new ArrayList<>();
        ServiceSpec current = null;
        List<TableReal> reals = new ArrayList<>();
        for (int i = 3; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("  -> ")) {
                if (current == null) {
                    throw new FormatException("real-server line before any service: " + line);
                }
                String[] f = line.substring(5).trim().split("\\s+");
                if (f.length != 5) {
                    throw new FormatException("unexpected real-server line: " + line);
                }
                Forward fwd = Forward.fromListName(f[1])
                        .orElseThrow(() -> new FormatException("unknown forwarding method in: " + line));
                try {
                    reals.add(new TableReal(new RealSpec(endpoint(f[0]), fwd, Integer.parseInt(f[2]), 0, 0),
                            Long.parseLong(f[3]), Long.parseLong(f[4]), Counters.ZERO, Counters.ZERO));
                } catch (NumberFormatException e) {
                    throw new FormatException("unexpected number in: " + line);
                }
            } else {
                if (current != null) {
                    out.add(new TableService(current, reals, Counters.ZERO, Counters.ZERO));
                }
                current = serviceLine(line);
                reals = new ArrayList<>();
            }
        }
        if (current != null) {
            out.add(new TableService(current, reals, Counters.ZERO, Counters.ZERO));
        }
        return new TableSnapshot(out, List.of());
    }

    private static ServiceSpec serviceLine(String line) throws FormatException {
        String[] f = line.trim().split("\\s+");
        if (f.length < 3) {
            throw new FormatException("unexpected service line: " + line);
        }
        Protocol p = Protocol.fromListName(f[0])
                .orElseThrow(() -> new FormatException("unknown protocol in: " + line));
        int i = 2;
        ServiceKey key;
        if (p == Protocol.FWM) {
            boolean v6 = f.length > 2 && f[2].equals("IPv6");
            key = ServiceKey.fwmark(Long.parseLong(f[1]), v6);
            i = v6 ? 3 : 2;
        } else {
            key = ServiceKey.of(p, endpoint(f[1]));
        }
        if (i >= f.length) {
            throw new FormatException("no scheduler in: " + line);
        }
        String sched = f[i++];
        Optional<String> flags = Optional.empty();
        Optional<Integer> persistent = Optional.empty();
        Optional<String> mask = Optional.empty();
        boolean ops = false;
        while (i < f.length) {
            String w = f[i++];
            if (w.startsWith("(") && w.endsWith(")")) {
                flags = Optional.of(w.substring(1, w.length() - 1));
            } else if (w.equals("persistent") && i < f.length) {
                persistent = Optional.of(Integer.parseInt(f[i++]));
            } else if (w.equals("mask") && i < f.length) {
                mask = Optional.of(f[i++]);
            } else if (w.equals("pe") && i < f.length) {
                i++;
            } else if (w.equals("ops")) {
                ops = true;
            } else {
                throw new FormatException("unexpected word '" + w + "' in: " + line);
            }
        }
        return new ServiceSpec(key, sched, persistent, mask, ops, flags);
    }

    /**
     * Adds the figures of {@code ipvsadm -L -n --stats} or {@code --rate} output to a snapshot read
     * from {@code -L -n} (matched by position: ipvsadm lists both in the same order).
     */
    public static TableSnapshot withFigures(TableSnapshot t, String text, ListView view) throws FormatException {
        String[] lines = text.split("\n");
        List<Counters> figures = new ArrayList<>();
        for (int i = 3; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            String nums = line.startsWith("  -> ") ? line.substring(5 + 28) : line.substring(Math.min(33,
                    line.length()));
            String[] f = nums.trim().split("\\s+");
            if (f.length != 5) {
                throw new FormatException("unexpected line in ipvsadm --" + view.name().toLowerCase(Locale.ROOT)
                        + " output: " + line);
            }
            try {
                figures.add(new Counters(readLargeNumber(f[0]), readLargeNumber(f[1]), readLargeNumber(f[2]),
                        readLargeNumber(f[3]), readLargeNumber(f[4])));
            } catch (NumberFormatException e) {
                throw new FormatException("unexpected number in: " + line);
            }
        }
        int n = 0;
        List<TableService> out = new ArrayList<>();
        for (TableService s : t.services()) {
            if (n >= figures.size()) {
                throw new FormatException("fewer lines in the figures than services and reals");
            }
            Counters sc = figures.get(n++);
            List<TableReal> rs = new ArrayList<>();
            for (TableReal r : s.reals()) {
                if (n >= figures.size()) {
                    throw new FormatException("fewer lines in the figures than services and reals");
                }
                Counters rc = figures.get(n++);
                rs.add(view == ListView.STATS ? new TableReal(r.spec(), r.activeConns(), r.inactConns(), rc, r.rate())
                        : new TableReal(r.spec(), r.activeConns(), r.inactConns(), r.stats(), rc));
            }
            out.add(view == ListView.STATS ? new TableService(s.spec(), rs, sc, s.rate())
                    : new TableService(s.spec(), rs, s.stats(), sc));
        }
        return new TableSnapshot(out, t.connections());
    }

    /** Reads {@code ipvsadm -L -n -c} output into connection entries. */
    public static List<ConnectionEntry> readConnections(String text) throws FormatException {
        List<ConnectionEntry> out = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 2; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            String[] f = lines[i].trim().split("\\s+");
            if (f.length != 6 || !f[1].matches("\\d+:\\d\\d")) {
                throw new FormatException("unexpected line in ipvsadm -c output: " + lines[i]);
            }
            String[] ms = f[1].split(":");
            out.add(new ConnectionEntry(f[0], Long.parseLong(ms[0]) * 60 + Long.parseLong(ms[1]), f[2], f[3], f[4],
                    f[5]));
        }
        return out;
    }

    /** {@code ip:port} or {@code [v6]:port} as ipvsadm prints them. */
    static Endpoint endpoint(String s) throws FormatException {
        int colon = s.lastIndexOf(':');
        if (colon < 0) {
            throw new FormatException("expected address:port, found " + s);
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (!host.matches("[0-9a-fA-F.:]+")) {
            throw new FormatException("expected a numeric address, found " + s);
        }
        try {
            return new Endpoint(InetAddress.getByName(host), Integer.parseInt(s.substring(colon + 1)));
        } catch (UnknownHostException | IllegalArgumentException e) {
            throw new FormatException("expected address:port, found " + s);
        }
    }
}
