package org.jheartbeat.director.userspace;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.director.table.ConnectionEntry;
import org.jheartbeat.director.table.Counters;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.table.TableReal;
import org.jheartbeat.director.table.TableService;
import org.jheartbeat.director.userspace.sched.ServiceScheduling;

/**
 * A minimal decision model for the data path's own tests, NOT the kernel-exact one (that is the
 * {@code sched} package): plain round robin over the reals with weight above 0 in list
 * order (new reals at the head, as the kernel), a connection counted inactive until established,
 * active until its first FIN, gone when closed (no TIME_WAIT entry), and persistence by the
 * client's whole address to its real for as long as the real stays in the table with a weight
 * (no template timeout). Registered for {@link SchedulingFactory#installed()} in the director's
 * test resources only.
 */
public final class TestRoundRobinScheduling implements ServiceScheduling {

    /** The factory the test class path offers. */
    public static final class Factory implements SchedulingFactory {
        @Override
        public ServiceScheduling apply(ServiceSpec spec) {
            return new TestRoundRobinScheduling(spec);
        }
    }

    private final class Real {
        RealSpec spec;
        long active;
        long inactive;
        long conns;
        long inPkts;
        long outPkts;
        long inBytes;
        long outBytes;

        Real(RealSpec spec) {
            this.spec = spec;
        }
    }

    private enum State { SYN, ESTABLISHED, FIN, CLOSED }

    private ServiceSpec spec;
    private final List<Real> reals = new ArrayList<>();
    private final Map<InetSocketAddress, Real> removed = new HashMap<>();
    private final Map<InetAddress, Real> persistence = new HashMap<>();
    private final Map<Conn, Boolean> open = new LinkedHashMap<>();
    private int next;

    public TestRoundRobinScheduling(ServiceSpec spec) {
        this.spec = spec;
    }

    @Override
    public void update(ServiceSpec service) {
        spec = service;
    }

    @Override
    public void addReal(RealSpec real) {
        reals.add(0, new Real(real));
    }

    @Override
    public void editReal(RealSpec real) {
        find(real.endpoint().socketAddress()).ifPresent(r -> r.spec = real);
    }

    @Override
    public void removeReal(InetSocketAddress real) {
        find(real).ifPresent(r -> {
            reals.remove(r);
            removed.put(real, r);
        });
        persistence.values().removeIf(r -> r.spec.endpoint().socketAddress().equals(real));
    }

    private Optional<Real> find(InetSocketAddress a) {
        return reals.stream().filter(r -> r.spec.endpoint().socketAddress().equals(a)).findFirst();
    }

    @Override
    public Optional<Connection> open(InetSocketAddress client) {
        Real chosen = null;
        if (spec.persistent().isPresent()) {
            Real r = persistence.get(client.getAddress());
            if (r != null && reals.contains(r) && r.spec.weight() > 0) {
                chosen = r;
            }
        }
        if (chosen == null) {
            for (int i = 0; i < reals.size(); i++) {
                Real r = reals.get((next + i) % reals.size());
                if (r.spec.weight() > 0) {
                    chosen = r;
                    next = (next + i + 1) % reals.size();
                    break;
                }
            }
        }
        if (chosen == null) {
            return Optional.empty();
        }
        if (spec.persistent().isPresent()) {
            persistence.put(client.getAddress(), chosen);
        }
        chosen.inactive++;
        chosen.conns++;
        Conn c = new Conn(chosen, client);
        open.put(c, true);
        return Optional.of(c);
    }

    private final class Conn implements Connection {
        final Real real;
        final InetSocketAddress client;
        State state = State.SYN;

        Conn(Real real, InetSocketAddress client) {
            this.real = real;
            this.client = client;
        }

        @Override
        public InetSocketAddress real() {
            return real.spec.endpoint().socketAddress();
        }

        @Override
        public void established() {
            if (state == State.SYN) {
                state = State.ESTABLISHED;
                real.inactive--;
                real.active++;
            }
        }

        @Override
        public void closing() {
            if (state == State.ESTABLISHED) {
                state = State.FIN;
                real.active--;
                real.inactive++;
            }
        }

        @Override
        public void closed() {
            if (state == State.ESTABLISHED) {
                real.active--;
            } else if (state == State.SYN || state == State.FIN) {
                real.inactive--;
            }
            state = State.CLOSED;
            open.remove(this);
        }

        @Override
        public void transferred(long inPackets, long outPackets, long inBytes, long outBytes) {
            real.inPkts += inPackets;
            real.outPkts += outPackets;
            real.inBytes += inBytes;
            real.outBytes += outBytes;
        }
    }

    @Override
    public TableService snapshot() {
        List<TableReal> out = new ArrayList<>();
        long[] sum = new long[5];
        List<Real> sorted = new ArrayList<>(reals);
        sorted.sort(Comparator.comparing(r -> r.spec.endpoint()));
        for (Real r : sorted) {
            Counters c = new Counters(r.conns, r.inPkts, r.outPkts, r.inBytes, r.outBytes);
            out.add(new TableReal(r.spec, r.active, r.inactive, c, Counters.ZERO));
        }
        for (Real r : reals) {
            sum[0] += r.conns;
            sum[1] += r.inPkts;
            sum[2] += r.outPkts;
            sum[3] += r.inBytes;
            sum[4] += r.outBytes;
        }
        for (Real r : removed.values()) {
            sum[0] += r.conns;
            sum[1] += r.inPkts;
            sum[2] += r.outPkts;
            sum[3] += r.inBytes;
            sum[4] += r.outBytes;
        }
        return new TableService(spec, out, new Counters(sum[0], sum[1], sum[2], sum[3], sum[4]), Counters.ZERO);
    }

    @Override
    public List<ConnectionEntry> connections() {
        List<ConnectionEntry> out = new ArrayList<>();
        for (Conn c : open.keySet()) {
            out.add(new ConnectionEntry(spec.key().protocol().listName(), 0, c.state.name(),
                    c.client.getAddress().getHostAddress() + ":" + c.client.getPort(), spec.key().address(),
                    c.real.spec.endpoint().toString()));
        }
        return out;
    }

    @Override
    public void expire() {
        // nothing times out in this model
    }
}
