package org.jheartbeat.director.userspace;

import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.table.BackendException;
import org.jheartbeat.director.table.ConnectionEntry;
import org.jheartbeat.director.table.IpvsTable;
import org.jheartbeat.director.table.ListView;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.table.TableBackend;
import org.jheartbeat.director.table.TableCommand;
import org.jheartbeat.director.table.TableService;
import org.jheartbeat.director.table.TableSnapshot;
import org.jheartbeat.director.userspace.sched.ServiceScheduling;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The virtual-service table in user space, for hosts without IPVS: each TCP or UDP
 * service is a listener on its virtual address that proxies both directions to the real server its
 * {@link ServiceScheduling} chooses (LVS-NAT style whatever the configured forwarding method: the
 * real servers see the director's address, or the client's through a PROXY protocol v1 header for
 * the reals listed in {@link UserspaceOptions#proxyProtocol()}). The structure is kept as the
 * kernel keeps it ({@link IpvsTable}: the same errors, "Service already exists" and so on); the
 * figures ({@code ActiveConn}, {@code InActConn}, {@code --stats}, {@code --rate}) and the
 * connection entries come from each service's {@link ServiceScheduling}, told by the data path
 * when a connection is established, closing, closed and what it transferred (a "packet" here is
 * one read from a socket, not an IP packet).
 *
 * <p>Firewall-mark services need the kernel and are refused. Deleting a service ends its open
 * connections. Threads: Netty event loops (epoll where available, else NIO); the decision
 * model's expiry runs once a second.
 */
public final class UserspaceBackend implements TableBackend, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UserspaceBackend.class);

    /**
     * Figures of the data path.
     *
     * @param maxTcp          the TCP connection bound in force (the configured one, or less when the descriptor
     *                        limit cannot hold it)
     * @param maxPerSource    TCP connections (over all services) and UDP flows (per service) of one client address
     */
    public record Figures(String transport, int openTcp, int udpFlows, long refused, long dropped, int maxTcp,
                          int maxPerSource) {
    }

    private final Function<ServiceSpec, ServiceScheduling> schedulers;
    private final UserspaceOptions options;
    private final Transport transport;
    private final EventLoopGroup group;
    private final IpvsTable table = new IpvsTable();
    private final Map<ServiceKey, VirtualProxy> services = new HashMap<>();
    private final TcpAdmission admission;
    private final MonotonicClock clock;
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final ScheduledFuture<?> ticker;
    /** The template sync while this director is the active one of a pair ({@code syncdaemon}), else null. */
    private volatile TemplateReplication replication;

    /**
     * Starts the event loops (no listener yet).
     *
     * @param schedulers makes each service's decision model from its spec (the scheduler, persistence)
     * @param options    timeouts, bounds and transport
     */
    public UserspaceBackend(Function<ServiceSpec, ServiceScheduling> schedulers, UserspaceOptions options) {
        this(schedulers, options, MonotonicClock.system());
    }

    /**
     * Starts the event loops (no listener yet), on a given clock for the idle times of UDP flows and TCP
     * connections.
     *
     * @param schedulers makes each service's decision model from its spec (the scheduler, persistence)
     * @param options    timeouts, bounds and transport
     * @param clock      monotonic time of the UDP flow tables and the TCP idle timers
     */
    public UserspaceBackend(Function<ServiceSpec, ServiceScheduling> schedulers, UserspaceOptions options,
                            MonotonicClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.schedulers = Objects.requireNonNull(schedulers, "schedulers");
        this.options = Objects.requireNonNull(options, "options");
        this.transport = new Transport(options.nio());
        this.group = transport.group(options.ioThreads());
        long fds = descriptorLimit();
        this.admission = new TcpAdmission(options.connectionsWithin(fds), options.maxPerSource());
        this.ticker = group.next().scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
        LOG.info("User-space director backend on Netty {} ({} I/O threads); at most {} TCP connections, {} UDP flows"
                + " per service, {} of either per client address", transport.name(),
                options.ioThreads() == 0 ? "default" : options.ioThreads(), admission.max(), options.maxUdpFlows(),
                options.maxPerSource());
        if (admission.max() < options.maxConnections()) {
            LOG.warn("At most {} TCP connections at once, not {}: the open-file limit is {} and each connection"
                    + " holds two (raise LimitNOFILE= in the unit to allow more)", admission.max(),
                    options.maxConnections(), fds);
        }
    }

    @Override
    public String name() {
        return "userspace";
    }

    /** The Netty transport in use: {@code epoll} or {@code nio}. */
    public String transport() {
        return transport.name();
    }

    /** Open TCP connections, UDP flows, clients refused (bound reached, no real) and datagrams dropped. */
    public Figures figures() {
        int udp;
        synchronized (this) {
            udp = services.values().stream().filter(v -> v instanceof UdpService).mapToInt(VirtualProxy::open).sum();
        }
        return new Figures(transport.name(), admission.open(), udp, refused.get(), dropped.get(), admission.max(),
                admission.perSource());
    }

    /**
     * The figures and bounds in one line, e.g. {@code User-space data path (epoll): 3 TCP connections open, at most
     * 9744 (1000 per client address); 0 UDP flows, at most 65536 per service (1000 per client address); 2 clients
     * refused, 0 datagrams dropped}.
     */
    @Override
    public Optional<String> dataPath() {
        Figures f = figures();
        return Optional.of("User-space data path (" + f.transport() + "): " + f.openTcp() + " TCP connections open,"
                + " at most " + f.maxTcp() + " (" + f.maxPerSource() + " per client address); " + f.udpFlows()
                + " UDP flows, at most " + options.maxUdpFlows() + " per service (" + f.maxPerSource()
                + " per client address); " + f.refused() + " clients refused, " + f.dropped() + " datagrams dropped");
    }

    /** This process's open-file limit, or a large number when the platform does not say. */
    private static long descriptorLimit() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        return os instanceof com.sun.management.UnixOperatingSystemMXBean u ? u.getMaxFileDescriptorCount()
                : Long.MAX_VALUE;
    }

    private void tick() {
        List<VirtualProxy> all;
        Map<ServiceKey, VirtualProxy> byKey;
        synchronized (this) {
            all = List.copyOf(services.values());
            byKey = Map.copyOf(services);
        }
        TemplateReplication r = replication;
        if (r != null) {
            try {
                r.round(byKey);
            } catch (RuntimeException e) {
                LOG.warn("template sync round failed: {}", e.toString());
            }
        }
        for (VirtualProxy v : all) {
            try {
                v.expire();
                v.sweep();
            } catch (RuntimeException e) {
                LOG.warn("expiry failed: {}", e.toString());
            }
        }
    }

    @Override
    public boolean appliesRejoinRules() {
        return true;
    }

    @Override
    public synchronized void rejoinRules(ServiceKey service, org.jheartbeat.director.config.Rejoin rules) {
        VirtualProxy v = services.get(service);
        if (v != null) {
            v.rejoinRules(rules);
        }
    }

    @Override
    public synchronized TableSnapshot read() {
        return table.snapshot();
    }

    @Override
    public synchronized TableSnapshot status(ListView view, boolean connections) {
        List<TableService> out = new ArrayList<>();
        List<ConnectionEntry> conns = new ArrayList<>();
        for (ServiceKey k : table.serviceKeys()) {
            VirtualProxy v = services.get(k);
            out.add(v.snapshot());
            if (connections) {
                conns.addAll(v.connections());
            }
        }
        return new TableSnapshot(out, conns);
    }

    @Override
    public synchronized void apply(List<TableCommand> commands) throws BackendException {
        List<TableCommand> failed = new ArrayList<>();
        List<String> why = new ArrayList<>();
        for (TableCommand c : commands) {
            Optional<String> err = applyOne(c);
            if (err.isPresent()) {
                failed.add(c);
                why.add(c.commandLine() + ": " + err.get());
            }
        }
        if (!failed.isEmpty()) {
            throw new BackendException("the user-space table refused " + failed.size() + " change(s): "
                    + String.join("; ", why), failed);
        }
    }

    private Optional<String> applyOne(TableCommand c) {
        if (c instanceof TableCommand.AddService a && a.service().protocol() == Protocol.FWM) {
            return Optional.of("firewall-mark services need the kernel's IPVS; the user-space backend serves"
                    + " TCP and UDP addresses");
        }
        Optional<String> err = table.apply(c);
        if (err.isPresent()) {
            return err;
        }
        try {
            if (c instanceof TableCommand.AddService a) {
                Optional<String> e = start(a.spec());
                if (e.isPresent()) {
                    table.apply(new TableCommand.DeleteService(a.service()));
                }
                return e;
            } else if (c instanceof TableCommand.EditService e) {
                services.get(e.service()).update(e.spec());
            } else if (c instanceof TableCommand.DeleteService d) {
                VirtualProxy v = services.remove(d.service());
                v.close();
            } else if (c instanceof TableCommand.SetReal s) {
                RealSpec r = table.real(s.service(), s.real().endpoint()).orElseThrow();
                if (s.edit()) {
                    services.get(s.service()).editReal(r);
                } else {
                    services.get(s.service()).addReal(r);
                }
            } else if (c instanceof TableCommand.DeleteReal d) {
                services.get(d.service()).removeReal(d.real().socketAddress());
            }
        } catch (RuntimeException e) {
            LOG.error("the decision model failed on {}: {}", c.commandLine(), e.toString());
            return Optional.of(e.toString());
        }
        return Optional.empty();
    }

    /** Makes the decision model and binds the listener (three attempts 200 ms apart). */
    private Optional<String> start(ServiceSpec spec) {
        ServiceScheduling s = schedulers.apply(spec);
        VirtualProxy v = spec.key().protocol() == Protocol.UDP
                ? new UdpService(s, group, transport, options, dropped, clock)
                : new TcpService(s, group, transport, options, admission, refused, clock);
        InetSocketAddress at = spec.key().endpoint().orElseThrow().socketAddress();
        Exception last = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                v.bind(at);
                services.put(spec.key(), v);
                LOG.info("Listening on {} {} ({})", spec.key().protocol().configName(), at, spec.scheduler());
                return Optional.empty();
            } catch (Exception e) {
                last = e;
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return Optional.of("cannot listen on " + at + ": " + (last == null ? "interrupted" : last.getMessage()));
    }

    /**
     * Takes over the templates the standby kept and sends this director's templates to the other one each
     * second from now on (user-space template sync, {@link TemplateReplication}); the kernel's sync daemon
     * has no part here.
     */
    @Override
    public void syncActive(org.jheartbeat.director.config.SyncSettings sync) throws BackendException {
        Map<ServiceKey, VirtualProxy> now;
        synchronized (this) {
            now = Map.copyOf(services);
        }
        // the file is read outside the lock: the expiry tick on the event loop never waits for it
        TemplateReplication r = TemplateReplication.start(sync, now,
                org.jheartbeat.director.userspace.sync.TemplateSync.STATE_DIR,
                org.jheartbeat.core.time.WallClocks.system());
        TemplateReplication old;
        synchronized (this) {
            old = replication;
            replication = r;
        }
        if (old != null) {
            old.close();
        }
    }

    /** Stops sending; receiving on this node is {@code hb lvs syncd}'s. */
    @Override
    public void syncStandby(org.jheartbeat.director.config.SyncSettings sync) {
        TemplateReplication r;
        synchronized (this) {
            r = replication;
            replication = null;
        }
        if (r != null) {
            r.close();
        }
    }

    /** Closes every listener and connection and stops the event loops. */
    @Override
    public void close() {
        syncStandby(null);
        ticker.cancel(false);
        List<VirtualProxy> all;
        synchronized (this) {
            all = List.copyOf(services.values());
            services.clear();
        }
        all.forEach(VirtualProxy::close);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
