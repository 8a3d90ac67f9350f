package org.jheartbeat.director.userspace.sched;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.Rejoin;
import org.jheartbeat.director.table.ConnectionEntry;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.table.TableReal;
import org.jheartbeat.director.table.TableService;
import org.jheartbeat.director.userspace.sched.PersistenceTemplates.Template;

/**
 * One virtual service decided as Linux IPVS decides it (facts {@code lvs.md} §1–§2; kernel
 * {@code net/netfilter/ipvs}, read for facts only):
 * <ul>
 * <li>destinations in the kernel's list order (a new one goes to the head), the scheduler of
 * {@link ServiceSpec#scheduler()} with its flags ({@code sh-fallback}/{@code mh-fallback} =
 * {@code flag-1}, {@code sh-port}/{@code mh-port} = {@code flag-2});</li>
 * <li>connection entries: created inactive and counted at bind; TCP states SYN_RECV (60 s),
 * ESTABLISHED (900 s, active), FIN_WAIT (120 s), TIME_WAIT (120 s), CLOSE (10 s); UDP always
 * inactive (300 s); every packet re-arms the entry's timer; a new connection from a client
 * address and port whose entry is still there reuses it (TCP in TIME_WAIT is expired and
 * scheduled afresh, {@code conn_reuse_mode} 1); one-packet UDP services free the entry at once;</li>
 * <li>thresholds: the overload flag is set at bind when active + inactive &ge; upper, cleared at
 * unbind below the lower threshold, or below ¾ of the upper when no lower is set, or outright
 * with no threshold; an edit clears it when the upper threshold is 0 or raised;</li>
 * <li>persistence: a template per client address under the netmask, timeout {@code -p}; a new
 * connection re-arms it; when it expires while it still controls connections it is kept another
 * 60 s (and its timeout becomes 60 s); a template whose destination is deleted (or has weight 0
 * with {@code expire_quiescent_template}) is invalidated and the client scheduled again;</li>
 * <li>a deleted destination leaves the list but keeps its connections counted (the kernel's
 * trash) and comes back with its counters if re-added while it is still there (120 s after its
 * last connection);</li>
 * <li>{@code --stats} and {@code --rate} as {@link Traffic} computes them, every 2 s;</li>
 * <li>jheartbeat's rejoin rules ({@link #rejoinPolicy}), which the kernel does not have.</li>
 * </ul>
 * The service owns the destination list, the connection entries and the counters; the scheduler is
 * chosen by {@link Schedulers}, the persistence templates are kept by {@link PersistenceTemplates} and
 * the threshold rules are {@link Dest}'s.
 * Not thread-safe; time from the clock given at creation (nanoseconds, monotonic).
 */
public final class IpvsService implements ServiceScheduling {
    static final long SECOND = 1_000_000_000L;
    /** {@code IP_VS_DEST_TRASH_PERIOD}. */
    static final long TRASH_PERIOD_NANOS = 120 * SECOND;

    /** Connection states as {@code ipvsadm -L -n -c} names them. */
    enum State {
        NONE, SYN_RECV, ESTABLISHED, FIN_WAIT, TIME_WAIT, CLOSE, UDP
    }

    /** Creation order of entries and templates, for the {@code -c} listing. */
    private long sequence;

    /** A connection entry; armed in {@link #expiry} (lane: its state) while it is kept. */
    private final class Entry extends ExpiryLanes.Node {
        final long seq = sequence++;
        /** The count reset in force when it was bound; older than the service's: left out of lc/wlc/sed/nq. */
        final long epoch = resetEpoch;
        final InetSocketAddress client;
        final Dest dest;
        final boolean udp;
        State state;
        boolean inactive = true;
        Template control;
        int generation;
        boolean live = true;

        Entry(InetSocketAddress client, Dest dest, boolean udp) {
            this.client = client;
            this.dest = dest;
            this.udp = udp;
        }
    }

    private final LongSupplier clock;
    private final Tunables tunables;
    private ServiceSpec spec;
    private final List<Dest> dests = new ArrayList<>();
    private final List<Dest> trash = new ArrayList<>();
    private Scheduler scheduler;
    private final Traffic traffic = new Traffic();
    private long nextEstimate;
    private final Map<InetSocketAddress, Entry> entries = new HashMap<>();
    /** The entries by deadline, a lane per state: expiry visits what is due, not every entry. */
    private final ExpiryLanes<Entry> expiry = new ExpiryLanes<>(State.values().length);
    private final PersistenceTemplates templates;
    private final InetAddress virtualAddress;
    private Rejoin rejoin = Rejoin.OFF;
    /** How many count resets there have been ({@code resetcounts}). */
    private long resetEpoch;

    /**
     * A service with no real server yet.
     *
     * @param spec     the service ({@code ipvsadm -A})
     * @param clock    monotonic nanoseconds
     * @param tunables kernel settings
     * @throws IllegalArgumentException for an unknown scheduler or flag (the kernel's "Scheduler
     *                                  or persistence engine not found")
     */
    public IpvsService(ServiceSpec spec, LongSupplier clock, Tunables tunables) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.tunables = Objects.requireNonNull(tunables, "tunables");
        this.templates = new PersistenceTemplates(tunables);
        this.virtualAddress = Scheduler.virtualAddress(spec);
        this.scheduler = Schedulers.create(spec, dests, tunables);
        long now = clock.getAsLong();
        this.nextEstimate = now + Traffic.PERIOD_NANOS;
        scheduler.tick(now);
    }

    /** The scheduler object (for tests in this package). */
    Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public void update(ServiceSpec service) {
        Objects.requireNonNull(service, "service");
        if (!service.key().equals(spec.key())) {
            throw new IllegalArgumentException("cannot change a service's address: " + spec.key() + " → "
                    + service.key());
        }
        boolean newSched = !service.scheduler().equals(spec.scheduler())
                || !service.schedFlags().equals(spec.schedFlags());
        Scheduler next = newSched ? Schedulers.create(service, dests, tunables) : scheduler;
        spec = service;
        if (newSched) {
            scheduler = next;
            scheduler.tick(clock.getAsLong());
        }
    }

    @Override
    public void addReal(RealSpec real) {
        Objects.requireNonNull(real, "real");
        InetSocketAddress a = real.endpoint().socketAddress();
        if (find(a) >= 0) {
            throw new IllegalArgumentException("Destination already exists: " + real.endpoint());
        }
        Dest d = null;
        for (Iterator<Dest> it = trash.iterator(); it.hasNext(); ) {
            Dest t = it.next();
            if (t.address.equals(a)) {
                it.remove();
                d = t;
            }
        }
        if (d == null) {
            d = new Dest(real);
        } else {
            d.update(real, true);
            d.available = true;
            d.idleSince = -1;
        }
        dests.add(0, d);
        scheduler.added(d);
        if (d.weight > 0) {
            resetEpoch += RejoinRules.joined(d, dests, trash, rejoin, clock.getAsLong()) ? 1 : 0;
        }
    }

    @Override
    public void rejoinPolicy(Rejoin policy) {
        rejoin = Objects.requireNonNull(policy, "policy");
    }

    @Override
    public void editReal(RealSpec real) {
        Objects.requireNonNull(real, "real");
        int i = find(real.endpoint().socketAddress());
        if (i < 0) {
            throw new IllegalArgumentException("No such destination: " + real.endpoint());
        }
        Dest d = dests.get(i);
        boolean wasQuiesced = d.weight == 0;
        d.update(real, false);
        scheduler.updated(d);
        if (wasQuiesced && d.weight > 0) {
            resetEpoch += RejoinRules.joined(d, dests, trash, rejoin, clock.getAsLong()) ? 1 : 0;
        }
    }

    @Override
    public void removeReal(InetSocketAddress real) {
        int i = find(Objects.requireNonNull(real, "real"));
        if (i < 0) {
            throw new IllegalArgumentException("No such destination: " + real);
        }
        Dest d = dests.remove(i);
        d.available = false;
        scheduler.removed(d, i);
        trash.add(d);
    }

    private int find(InetSocketAddress a) {
        for (int i = 0; i < dests.size(); i++) {
            if (dests.get(i).address.equals(a)) {
                return i;
            }
        }
        return -1;
    }

    private boolean udp() {
        return spec.key().protocol() == Protocol.UDP;
    }

    @Override
    public Optional<Connection> open(InetSocketAddress client) {
        Objects.requireNonNull(client, "client");
        long now = clock.getAsLong();
        estimate(now);
        boolean udp = udp();
        Entry old = entries.get(client);
        if (old != null) {
            if (udp) {
                expiry.arm(old, State.UDP.ordinal(), now + tunables.timeoutNanos(State.UDP));
                return Optional.of(new Handle(old, old.dest));
            }
            if (old.state != State.TIME_WAIT) {
                old.generation++;
                setState(old, old.state == State.ESTABLISHED ? State.ESTABLISHED : State.SYN_RECV, now);
                return Optional.of(new Handle(old, old.dest));
            }
            drop(old);
        }
        Scheduler.Request request = new Scheduler.Request(client.getAddress(), client.getPort(), virtualAddress);
        Template ct = null;
        Dest dest;
        if (spec.persistent().isPresent()) {
            InetAddress key = PersistenceTemplates.masked(client.getAddress(), spec.netmask());
            ct = templates.valid(key);
            if (ct == null) {
                dest = templates.adopted(key, now, a -> find(a) < 0 ? null : dests.get(find(a)));
                dest = dest != null ? dest : scheduler.schedule(request, now);
                if (dest == null) {
                    return Optional.empty();
                }
                ct = templates.create(sequence++, key, dest, spec.persistent().get() * SECOND);
            } else {
                dest = ct.dest;
            }
        } else {
            dest = scheduler.schedule(request, now);
            if (dest == null) {
                return Optional.empty();
            }
        }
        Entry e = new Entry(client, dest, udp);
        dest.inactConns++;
        dest.idleSince = -1;
        dest.checkUpper();
        setState(e, udp ? State.UDP : State.SYN_RECV, now);
        if (ct != null) {
            e.control = ct;
            ct.controlled++;
            ct.expiresAt = now + ct.timeoutNanos;
        }
        dest.traffic.conns++;
        traffic.conns++;
        if (udp && spec.ops()) {
            drop(e);
        } else {
            entries.put(client, e);
        }
        return Optional.of(new Handle(e, dest));
    }

    private boolean active(State s) {
        return s == State.ESTABLISHED || (s == State.SYN_RECV && tunables.activeBeforeEstablished());
    }

    /** {@code set_tcp_state}: moves the counters when the entry crosses active/inactive, re-arms the timer. */
    private void setState(Entry e, State s, long now) {
        boolean act = active(s);
        if (e.inactive == act) {
            e.dest.move(act, e.epoch < resetEpoch);
            e.inactive = !act;
        }
        e.state = s;
        expiry.arm(e, s.ordinal(), now + tunables.timeoutNanos(s));
        if (s == State.ESTABLISHED && e.control != null) {
            e.control.assured = true;
        }
    }

    /** Frees a connection entry: unbinds it from its destination and its template, forgets it. */
    private void drop(Entry e) {
        if (!e.live) {
            return;
        }
        unbind(e);
        if (entries.get(e.client) == e) {
            entries.remove(e.client);
        }
    }

    /** {@code ip_vs_unbind_dest} and the template's control count. */
    private void unbind(Entry e) {
        e.live = false;
        expiry.remove(e);
        e.dest.unbind(e.inactive, e.epoch < resetEpoch);
        e.dest.checkLower();
        if (e.control != null) {
            e.control.controlled--;
        }
    }

    @Override
    public void expire() {
        long now = clock.getAsLong();
        estimate(now);
        scheduler.tick(now);
        for (Entry e; (e = expiry.pollDue(now)) != null; ) {
            drop(e);
        }
        templates.expire(now);
        for (Iterator<Dest> it = trash.iterator(); it.hasNext(); ) {
            Dest d = it.next();
            if (d.totalConns() + d.persistConns > 0) {
                d.idleSince = -1;
            } else if (d.idleSince < 0) {
                d.idleSince = now;
            } else if (now - d.idleSince >= TRASH_PERIOD_NANOS) {
                it.remove();
            }
        }
    }

    /** Runs the 2-second estimator for every period that has passed (at most 64 at once). */
    private void estimate(long now) {
        int runs = 0;
        while (now - nextEstimate >= 0) {
            if (runs++ == 64) {
                nextEstimate = now + Traffic.PERIOD_NANOS;
                break;
            }
            traffic.estimate();
            for (Dest d : dests) {
                d.traffic.estimate();
            }
            nextEstimate += Traffic.PERIOD_NANOS;
        }
    }

    @Override
    public List<SyncedTemplate> templates() {
        return spec.persistent().isEmpty() ? List.of() : templates.exported(clock.getAsLong());
    }

    @Override
    public void adopt(List<SyncedTemplate> synced) {
        templates.adopt(spec.persistent().isEmpty() ? List.of() : synced, clock.getAsLong());
    }

    @Override
    public TableService snapshot() {
        estimate(clock.getAsLong());
        List<TableReal> reals = new ArrayList<>();
        for (Dest d : dests) {
            reals.add(new TableReal(d.spec, d.activeConns, d.inactConns, d.traffic.totals(), d.traffic.rates()));
        }
        reals.sort(Comparator.comparing(r -> r.spec().endpoint()));
        return new TableService(spec, reals, traffic.totals(), traffic.rates());
    }

    /** The destinations in the kernel's list order (scheduling and tie-break order), for tests. */
    List<InetSocketAddress> listOrder() {
        return dests.stream().map(d -> d.address).toList();
    }

    /** PersistConn of a listed destination, for tests; -1 if not listed. */
    long persistConns(InetSocketAddress real) {
        int i = find(real);
        return i < 0 ? -1 : dests.get(i).persistConns;
    }

    /** The connection entries kept (templates not included), for tests. */
    int entryCount() {
        return entries.size();
    }

    /** Whether a listed destination has the overload flag, for tests. */
    boolean overloaded(InetSocketAddress real) {
        int i = find(real);
        return i >= 0 && dests.get(i).overloaded;
    }

    @Override
    public List<ConnectionEntry> connections() {
        long now = clock.getAsLong();
        String proto = spec.key().protocol() == Protocol.UDP ? "UDP" : "TCP";
        String vip = new Endpoint(virtualAddress, spec.key().port()).toString();
        List<Object[]> rows = new ArrayList<>();
        for (Entry e : entries.values()) {
            rows.add(new Object[] {e.seq, new ConnectionEntry(proto, seconds(e.expiresAt - now), e.state.name(),
                    new Endpoint(e.client.getAddress(), e.client.getPort()).toString(), vip,
                    e.dest.spec.endpoint().toString())});
        }
        String tproto = spec.key().protocol() == Protocol.FWM ? "IP" : proto;
        templates.list(rows, now, tproto, virtualAddress, spec.key().port());
        rows.sort(Comparator.comparingLong(r -> (Long) r[0]));
        return rows.stream().map(r -> (ConnectionEntry) r[1]).toList();
    }

    /** A remaining time in whole seconds, as the {@code -c} listing shows it; never negative. */
    static long seconds(long nanos) {
        return Math.max(0, nanos / SECOND);
    }

    /** The data path's handle on one entry; calls after the entry expired or was reused are ignored. */
    private final class Handle implements Connection {
        private final Entry entry;
        private final Dest dest;
        private final int generation;

        Handle(Entry entry, Dest dest) {
            this.entry = entry;
            this.dest = dest;
            this.generation = entry.generation;
        }

        private boolean current() {
            return entry.live && entry.generation == generation && !entry.udp;
        }

        @Override
        public InetSocketAddress real() {
            return dest.address;
        }

        @Override
        public void established() {
            if (current() && entry.state == State.SYN_RECV) {
                setState(entry, State.ESTABLISHED, clock.getAsLong());
            }
        }

        @Override
        public void closing() {
            if (current() && (entry.state == State.SYN_RECV || entry.state == State.ESTABLISHED)) {
                setState(entry, State.FIN_WAIT, clock.getAsLong());
            }
        }

        @Override
        public void closed() {
            if (!current()) {
                return;
            }
            if (entry.state == State.SYN_RECV) {
                setState(entry, State.CLOSE, clock.getAsLong());
            } else if (entry.state == State.ESTABLISHED || entry.state == State.FIN_WAIT) {
                setState(entry, State.TIME_WAIT, clock.getAsLong());
            }
        }

        @Override
        public void transferred(long inPackets, long outPackets, long inBytes, long outBytes) {
            long now = clock.getAsLong();
            estimate(now);
            for (Traffic t : new Traffic[] {dest.traffic, traffic}) {
                t.inPkts += inPackets;
                t.outPkts += outPackets;
                t.inBytes += inBytes;
                t.outBytes += outBytes;
            }
            if (entry.live && entry.generation == generation && inPackets + outPackets > 0) {
                expiry.arm(entry, entry.state.ordinal(), now + tunables.timeoutNanos(entry.state));
            }
        }

        @Override
        public String toString() {
            return entry.client + " -> " + dest;
        }
    }
}
