package org.jheartbeat.director.userspace;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.director.table.ConnectionEntry;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.table.TableService;
import org.jheartbeat.director.userspace.sched.ServiceScheduling;

/**
 * One virtual service's listener and its decision model. Every call into the
 * {@link ServiceScheduling} holds this object's lock (the contract is not thread-safe; the event
 * loops of different connections call it concurrently).
 */
abstract class VirtualProxy {
    private final ServiceScheduling scheduling;
    /** The bound listener (set once bound). */
    volatile Channel listener;

    VirtualProxy(ServiceScheduling scheduling) {
        this.scheduling = scheduling;
    }

    /** Binds the listener (blocking, bounded by the caller). */
    abstract void bind(InetSocketAddress address) throws Exception;

    /** Closes the listener and every connection or flow of the service. */
    abstract void close();

    /** Time passed: UDP flows idle past their timeout end (any thread). */
    void sweep() {
    }

    /** Open connections or flows now (figures). */
    abstract int open();

    synchronized Optional<ServiceScheduling.Connection> schedule(InetSocketAddress client) {
        return scheduling.open(client);
    }

    synchronized void update(ServiceSpec spec) {
        scheduling.update(spec);
    }

    synchronized void addReal(RealSpec real) {
        scheduling.addReal(real);
    }

    synchronized void editReal(RealSpec real) {
        scheduling.editReal(real);
    }

    synchronized void rejoinRules(org.jheartbeat.director.config.Rejoin rules) {
        scheduling.rejoinPolicy(rules);
    }

    synchronized void removeReal(InetSocketAddress real) {
        scheduling.removeReal(real);
    }

    synchronized TableService snapshot() {
        return scheduling.snapshot();
    }

    synchronized List<ConnectionEntry> connections() {
        return scheduling.connections();
    }

    /** The service's persistence templates, for the other director. */
    synchronized List<org.jheartbeat.director.userspace.sched.SyncedTemplate> templates() {
        return scheduling.templates();
    }

    /** Templates replicated from the other director ({@link ServiceScheduling#adopt}). */
    synchronized void adopt(List<org.jheartbeat.director.userspace.sched.SyncedTemplate> templates) {
        scheduling.adopt(templates);
    }

    synchronized void expire() {
        scheduling.expire();
    }

    synchronized void established(ServiceScheduling.Connection c) {
        c.established();
    }

    synchronized void closing(ServiceScheduling.Connection c) {
        c.closing();
    }

    synchronized void closed(ServiceScheduling.Connection c) {
        c.closed();
    }

    synchronized void transferred(ServiceScheduling.Connection c, long inPackets, long outPackets, long inBytes,
            long outBytes) {
        c.transferred(inPackets, outPackets, inBytes, outBytes);
    }
}
