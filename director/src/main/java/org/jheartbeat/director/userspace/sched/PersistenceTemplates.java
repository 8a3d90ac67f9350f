package org.jheartbeat.director.userspace.sched;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.table.ConnectionEntry;

/**
 * The persistence templates of one {@link IpvsService} ({@code ipvsadm -p} and {@code -M}): owns one
 * template per client address under the netmask, which template is still the valid one for its key,
 * their lifetime and their rows of the {@code -c} listing. A new connection re-arms its template (done
 * by the service); when a template expires while it still controls connections it is kept another 60 s
 * (and its timeout becomes 60 s); a template whose destination is deleted (or has weight 0 with
 * {@code expire_quiescent_template}) is invalidated and the client scheduled again.
 */
final class PersistenceTemplates {
    /** The kernel's "expire later": a template that still controls connections lives 60 s more. */
    static final long EXPIRE_LATER_NANOS = 60 * IpvsService.SECOND;

    /** One template: a client key bound to a destination. */
    static final class Template {
        final long seq;
        final InetAddress key;
        final Dest dest;
        long timeoutNanos;
        long expiresAt;
        int controlled;
        boolean invalid;
        boolean assured;

        Template(long seq, InetAddress key, Dest dest, long timeoutNanos) {
            this.seq = seq;
            this.key = key;
            this.dest = dest;
            this.timeoutNanos = timeoutNanos;
        }
    }

    /** At most this many templates taken over from the other director wait for their client. */
    static final int MAX_ADOPTED = 65_536;

    /** A template taken over from the other director: its real server and when it ends (ns). */
    private record Adopted(java.net.InetSocketAddress real, long expiresAt) {
    }

    private final Map<InetAddress, Adopted> adopted = new java.util.LinkedHashMap<>();
    private final Tunables tunables;
    private final List<Template> templates = new ArrayList<>();
    private final Map<InetAddress, Template> validTemplates = new HashMap<>();

    PersistenceTemplates(Tunables tunables) {
        this.tunables = tunables;
    }

    /**
     * The valid template of a key, or null when there is none; a template whose destination can no
     * longer take it is marked invalid (it stays listed until it expires) and forgotten as the key's.
     */
    Template valid(InetAddress key) {
        Template ct = validTemplates.get(key);
        if (ct != null && !templateValid(ct)) {
            ct.invalid = true;
            validTemplates.remove(key);
            ct = null;
        }
        return ct;
    }

    /**
     * A new template for {@code key} on {@code dest}, counted in the destination's PersistConn.
     *
     * @param seq          its place in the creation order of entries and templates ({@code -c} listing)
     * @param timeoutNanos the persistence timeout ({@code -p})
     */
    Template create(long seq, InetAddress key, Dest dest, long timeoutNanos) {
        Template ct = new Template(seq, key, dest, timeoutNanos);
        dest.persistConns++;
        dest.idleSince = -1;
        dest.checkUpper();
        templates.add(ct);
        validTemplates.put(key, ct);
        return ct;
    }

    private boolean templateValid(Template ct) {
        return usable(ct.dest);
    }

    private boolean usable(Dest d) {
        return d.available && !(tunables.expireQuiescentTemplate() && d.weight == 0);
    }

    /**
     * The destination of a template taken over for {@code key}, consumed: null when there is none, it has
     * ended, or its real server is not listed ({@code listed} gives null) or may not take it.
     */
    Dest adopted(InetAddress key, long now, java.util.function.Function<java.net.InetSocketAddress, Dest> listed) {
        Adopted a = adopted.remove(key);
        if (a == null || now - a.expiresAt >= 0) {
            return null;
        }
        Dest d = listed.apply(a.real);
        return d != null && usable(d) ? d : null;
    }

    /** Keeps templates of the other director (bounded: beyond {@link #MAX_ADOPTED} the rest is ignored). */
    void adopt(List<SyncedTemplate> synced, long now) {
        for (SyncedTemplate t : synced) {
            if (t.remainingMillis() == 0 || validTemplates.containsKey(t.client())) {
                continue;
            }
            if (adopted.size() >= MAX_ADOPTED && !adopted.containsKey(t.client())) {
                break;
            }
            adopted.put(t.client(), new Adopted(t.real(), now + t.remainingMillis() * 1_000_000L));
        }
    }

    /** The valid templates and the adopted ones still waiting, with the time they have left at {@code now}. */
    List<SyncedTemplate> exported(long now) {
        List<SyncedTemplate> out = new ArrayList<>();
        for (Template ct : validTemplates.values()) {
            if (!ct.invalid && templateValid(ct) && now - ct.expiresAt < 0) {
                out.add(new SyncedTemplate(ct.key, ct.dest.address, (ct.expiresAt - now) / 1_000_000L));
            }
        }
        adopted.forEach((k, a) -> {
            if (now - a.expiresAt < 0 && !validTemplates.containsKey(k)) {
                out.add(new SyncedTemplate(k, a.real, (a.expiresAt - now) / 1_000_000L));
            }
        });
        return out;
    }

    /**
     * Frees the templates whose time has come at {@code now} (ns), or keeps them 60 s more while they
     * still control connections.
     */
    void expire(long now) {
        adopted.values().removeIf(a -> now - a.expiresAt >= 0);
        for (Iterator<Template> it = templates.iterator(); it.hasNext(); ) {
            Template ct = it.next();
            if (now - ct.expiresAt < 0) {
                continue;
            }
            if (ct.controlled > 0) {
                ct.timeoutNanos = EXPIRE_LATER_NANOS;
                ct.expiresAt = now + EXPIRE_LATER_NANOS;
                continue;
            }
            it.remove();
            if (validTemplates.get(ct.key) == ct) {
                validTemplates.remove(ct.key);
            }
            ct.dest.persistConns--;
            ct.dest.checkLower();
        }
    }

    /**
     * Adds each template's {@code -c} row to {@code rows} as {creation order, entry}; an invalidated
     * template shows port 65535 for the virtual and real ports, as the kernel lists it.
     *
     * @param tproto the protocol column ({@code IP} for a firewall-mark service)
     * @param vport  the service's port
     */
    void list(List<Object[]> rows, long now, String tproto, InetAddress virtualAddress, int vport) {
        for (Template ct : templates) {
            int vp = ct.invalid ? 65535 : vport;
            int dport = ct.invalid ? 65535 : ct.dest.address.getPort();
            rows.add(new Object[] {ct.seq, new ConnectionEntry(tproto, IpvsService.seconds(ct.expiresAt - now),
                    ct.assured ? "ASSURED" : "NONE", new Endpoint(ct.key, 0).toString(),
                    new Endpoint(virtualAddress, vp).toString(),
                    new Endpoint(ct.dest.address.getAddress(), dport).toString())});
        }
    }

    /** A client address under the service's netmask ({@code -M}): the key of its template. */
    static InetAddress masked(InetAddress a, Optional<String> netmask) {
        if (netmask.isEmpty()) {
            return a;
        }
        byte[] b = a.getAddress();
        byte[] m = mask(netmask.get(), b.length);
        if (m == null) {
            return a;
        }
        for (int i = 0; i < b.length; i++) {
            b[i] &= m[i];
        }
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The netmask as bytes for an address of {@code length} bytes, or null if of the other family. */
    static byte[] mask(String netmask, int length) {
        if (netmask.contains(".")) {
            if (length != 4) {
                return null;
            }
            String[] p = netmask.split("\\.");
            byte[] m = new byte[4];
            for (int i = 0; i < 4; i++) {
                m[i] = (byte) Integer.parseInt(p[i]);
            }
            return m;
        }
        if (length != 16) {
            return null;
        }
        int prefix = Integer.parseInt(netmask.startsWith("/") ? netmask.substring(1) : netmask);
        byte[] m = new byte[16];
        for (int i = 0; i < 16; i++) {
            int bits = Math.max(0, Math.min(8, prefix - 8 * i));
            m[i] = (byte) (0xff << (8 - bits));
        }
        return m;
    }
}
