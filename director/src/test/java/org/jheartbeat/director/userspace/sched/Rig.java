package org.jheartbeat.director.userspace.sched;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.table.TableReal;
import org.jheartbeat.director.userspace.sched.ServiceScheduling.Connection;

/** A service on a fake clock, with helpers for scripts: reals by letter, clients by number. */
final class Rig {
    static final long S = 1_000_000_000L;
    long now = 1_000 * S;
    final IpvsService svc;
    final List<Connection> open = new ArrayList<>();

    Rig(ServiceSpec spec, Tunables t) {
        svc = new IpvsService(spec, () -> now, t);
    }

    static Rig of(String sched) {
        return new Rig(spec(Protocol.TCP, sched, null, null, null, false), Tunables.DEFAULTS);
    }

    static ServiceSpec spec(Protocol p, String sched, Integer persistent, String netmask, String flags, boolean ops) {
        return new ServiceSpec(ServiceKey.of(p, new Endpoint(addr("198.18.0.100"), 80)), sched,
                Optional.ofNullable(persistent), Optional.ofNullable(netmask), ops, Optional.ofNullable(flags));
    }

    static InetAddress addr(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Real server "A".."Z" → 198.18.1.1.. :80; also "R17" → 198.18.1.17. */
    static InetSocketAddress real(String name) {
        int n = name.length() == 1 ? name.charAt(0) - 'A' + 1 : Integer.parseInt(name.substring(1));
        return new InetSocketAddress(addr("198.18.1." + n), 80);
    }

    static String name(InetSocketAddress a) {
        int n = a.getAddress().getAddress()[3] & 0xff;
        return n <= 26 ? String.valueOf((char) ('A' + n - 1)) : "R" + n;
    }

    static RealSpec realSpec(String name, int weight, int upper, int lower) {
        InetSocketAddress a = real(name);
        return new RealSpec(new Endpoint(a.getAddress(), a.getPort()), Forward.MASQ, weight, upper, lower);
    }

    /** Client number n → 198.18.(64 + n / 250).(1 + n % 250) port 40000 + n % 20000. */
    static InetSocketAddress client(int n) {
        return new InetSocketAddress(addr("198.18." + (64 + n / 250) + "." + (1 + n % 250)), 40000 + n % 20000);
    }

    /** Adds reals in the order given (so the kernel's list is the reverse). */
    Rig add(String... namesAndWeights) {
        for (String nw : namesAndWeights) {
            String[] p = nw.split("=");
            svc.addReal(realSpec(p[0], p.length > 1 ? Integer.parseInt(p[1]) : 1, 0, 0));
        }
        return this;
    }

    void weight(String name, int w) {
        svc.editReal(realSpec(name, w, 0, 0));
    }

    /** Opens a connection from client n; the real's name or "-" when refused. */
    String pick(int clientNo) {
        return pick(client(clientNo));
    }

    /** Opens a connection from an explicit client address and port. */
    String pick(String clientAddress, int port) {
        return pick(new InetSocketAddress(addr(clientAddress), port));
    }

    String pick(InetSocketAddress client) {
        Optional<Connection> c = svc.open(client);
        c.ifPresent(open::add);
        return c.map(x -> name(x.real())).orElse("-");
    }

    /** Opens and establishes; returns the real's name. */
    String connect(int clientNo) {
        String r = pick(clientNo);
        if (!r.equals("-")) {
            open.get(open.size() - 1).established();
        }
        return r;
    }

    String picks(int count, int firstClient) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sb.append(pick(firstClient + i)).append(i + 1 < count ? " " : "");
        }
        return sb.toString();
    }

    /** Connects {@code count} new clients (numbered on from 1000); their reals, space-separated. */
    String connectAll(int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sb.append(connect(1000 + nextClient++)).append(i + 1 < count ? " " : "");
        }
        return sb.toString();
    }

    private int nextClient;

    /** As {@link #connectAll(int)}, for long sequences (clients numbered on from 5000). */
    String connectAllNames(int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sb.append(connect(5000 + nextClient++)).append(i + 1 < count ? " " : "");
        }
        return sb.toString();
    }

    void advance(long seconds) {
        now += seconds * S;
        svc.expire();
    }

    /** ActiveConn/InActConn per real name, from the snapshot. */
    Map<String, long[]> counts() {
        Map<String, long[]> m = new HashMap<>();
        for (TableReal r : svc.snapshot().reals()) {
            m.put(name(r.spec().endpoint().socketAddress()), new long[] {r.activeConns(), r.inactConns()});
        }
        return m;
    }

    long active(String name) {
        long[] c = counts().get(name);
        return c == null ? -1 : c[0];
    }

    long inactive(String name) {
        long[] c = counts().get(name);
        return c == null ? -1 : c[1];
    }
}
