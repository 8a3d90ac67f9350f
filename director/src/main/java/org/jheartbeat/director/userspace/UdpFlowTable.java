package org.jheartbeat.director.userspace;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The flows of one UDP virtual service, keyed by the client's address and port; a pure table on the caller's
 * clock (nanoseconds), touched by one thread. A UDP source address costs nothing to forge, so a full table must
 * not lock real clients out:
 * <ul>
 *   <li>a flow whose client has sent one datagram only is <em>new</em>; its second datagram makes it
 *       <em>talking</em> (forged sources rarely send twice from the same address and port, real clients
 *       do);</li>
 *   <li>when the table holds {@code maxFlows}, a new client takes the place of the least recently used new flow,
 *       else of the least recently used talking one; a new client is never dropped for lack of room;</li>
 *   <li>one client address holds at most {@code maxPerSource} flows; its datagrams from further ports are
 *       dropped, so one (real) host cannot take the table;</li>
 *   <li>a flow with no datagram either way for {@code timeoutNanos} is forgotten, as IPVS forgets its UDP
 *       entries.</li>
 * </ul>
 * IPVS itself keeps no such order (its table is bounded by memory only); this is the user-space director's own
 * rule, because its flows cost a socket each.
 *
 * @param <F> what the caller keeps per flow (its connected socket)
 */
final class UdpFlowTable<F> {
    private final int maxFlows;
    private final int maxPerSource;
    private final long timeoutNanos;
    /** Least recently used first, in each class. */
    private final LinkedHashMap<InetSocketAddress, Entry<F>> fresh = new LinkedHashMap<>();
    private final LinkedHashMap<InetSocketAddress, Entry<F>> talking = new LinkedHashMap<>();
    private final Map<InetAddress, Integer> perSource = new HashMap<>();

    /** What a new client's datagram may do. */
    sealed interface Admission<F> {
    }

    /** Room for one more flow; {@code evicted} was removed from the table to make it, and must be ended. */
    record Admit<F>(Optional<F> evicted) implements Admission<F> {
    }

    /** The client's address already holds {@code maxPerSource} flows: drop the datagram. */
    record SourceFull<F>() implements Admission<F> {
    }

    private static final class Entry<F> {
        final F flow;
        long last;

        Entry(F flow, long last) {
            this.flow = flow;
            this.last = last;
        }
    }

    /**
     * @param maxFlows     flows at once, at least 1
     * @param maxPerSource flows of one client address at once, 1..maxFlows
     * @param timeoutNanos idle time after which a flow is forgotten, ns
     * @throws IllegalArgumentException for bounds out of range
     */
    UdpFlowTable(int maxFlows, int maxPerSource, long timeoutNanos) {
        if (maxFlows < 1 || maxPerSource < 1 || maxPerSource > maxFlows || timeoutNanos <= 0) {
            throw new IllegalArgumentException("need 1 <= maxPerSource <= maxFlows and a positive timeout");
        }
        this.maxFlows = maxFlows;
        this.maxPerSource = maxPerSource;
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * A datagram from {@code client}: its flow, now most recently used (and talking, if it was new).
     *
     * @return the flow, or empty when the client has none (then {@link #admit} and {@link #put})
     */
    Optional<F> fromClient(InetSocketAddress client, long nowNanos) {
        Entry<F> e = fresh.remove(client);
        if (e == null) {
            e = talking.remove(client);
        }
        if (e == null) {
            return Optional.empty();
        }
        e.last = nowNanos;
        talking.put(client, e);
        return Optional.of(e.flow);
    }

    /** A datagram from the real server for {@code client}'s flow: the flow stays alive. */
    void fromReal(InetSocketAddress client, long nowNanos) {
        Entry<F> e = fresh.get(client);
        if (e == null) {
            e = talking.get(client);
        }
        if (e != null) {
            e.last = nowNanos;
        }
    }

    /**
     * Whether a client without a flow may open one; evicts a flow when the table is full (see the class
     * comment). Call {@link #put} when the flow is made.
     */
    Admission<F> admit(InetSocketAddress client) {
        if (perSource.getOrDefault(client.getAddress(), 0) >= maxPerSource) {
            return new SourceFull<>();
        }
        if (size() < maxFlows) {
            return new Admit<>(Optional.empty());
        }
        LinkedHashMap<InetSocketAddress, Entry<F>> from = fresh.isEmpty() ? talking : fresh;
        Iterator<Map.Entry<InetSocketAddress, Entry<F>>> it = from.entrySet().iterator();
        Map.Entry<InetSocketAddress, Entry<F>> victim = it.next();
        it.remove();
        release(victim.getKey());
        return new Admit<>(Optional.of(victim.getValue().flow));
    }

    /**
     * Adds {@code client}'s new flow (after {@link #admit} allowed it).
     *
     * @throws IllegalStateException when the client has a flow already or the table is full
     */
    void put(InetSocketAddress client, F flow, long nowNanos) {
        if (fresh.containsKey(client) || talking.containsKey(client) || size() >= maxFlows) {
            throw new IllegalStateException("no room for " + client + ": admit first");
        }
        fresh.put(client, new Entry<>(flow, nowNanos));
        perSource.merge(client.getAddress(), 1, Integer::sum);
    }

    /**
     * Removes the flows idle for the timeout or longer.
     *
     * @return their flows, to be ended
     */
    List<F> expire(long nowNanos) {
        List<F> out = new ArrayList<>();
        for (LinkedHashMap<InetSocketAddress, Entry<F>> m : List.of(fresh, talking)) {
            // a real server's answer refreshes a flow without moving it, so the whole class is looked at
            for (Iterator<Map.Entry<InetSocketAddress, Entry<F>>> it = m.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<InetSocketAddress, Entry<F>> e = it.next();
                if (nowNanos - e.getValue().last >= timeoutNanos) {
                    it.remove();
                    release(e.getKey());
                    out.add(e.getValue().flow);
                }
            }
        }
        return out;
    }

    /** Removes every flow. @return their flows, to be ended */
    List<F> clear() {
        List<F> out = new ArrayList<>();
        fresh.values().forEach(e -> out.add(e.flow));
        talking.values().forEach(e -> out.add(e.flow));
        fresh.clear();
        talking.clear();
        perSource.clear();
        return out;
    }

    /** Flows in the table. */
    int size() {
        return fresh.size() + talking.size();
    }

    private void release(InetSocketAddress client) {
        perSource.computeIfPresent(client.getAddress(), (a, n) -> n == 1 ? null : n - 1);
    }
}
