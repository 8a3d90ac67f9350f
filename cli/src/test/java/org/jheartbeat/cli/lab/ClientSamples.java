package org.jheartbeat.cli.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one client-side sampler of one resource group saw ({@link GroupSampler}), and the two figures the
 * migration drills draw from it. Pure: no lab, no clock.
 *
 * <p>A sample is one HTTP GET of the group's service through its VIP from the client namespace, then a read of
 * the client's neighbour (ARP) entry for that VIP, at {@code ms} (the client's wall clock, ms since the epoch):
 * {@code answeredBy} is the node name the lab web service put in its answer (it prints {@code uname -n}),
 * empty when the GET got no answer within its timeout; {@code connected} says whether the TCP connection was
 * accepted (curl's {@code time_connect} above zero); {@code arpNode} is the node whose eth0 MAC the neighbour
 * entry holds (the lab's fixed MACs {@code 02:00:c6:12:00:0N} name node N), empty when there is none.
 *
 * <p>A sample is <em>served</em> when it got an answer or at least its connection was accepted: the VIP was up
 * and the service listened on it, only its answer was slower than the timeout (a busy machine). During a
 * hand-over the service stops before its address goes and starts after it comes, so the client meets a reset or
 * silence, never an accepted connection, while the group is down.
 */
final class ClientSamples {
    /** One sample; see the class comment. */
    record Sample(long ms, String answeredBy, String arpNode, boolean connected) {
        boolean answered() {
            return !answeredBy.isEmpty();
        }

        /** Answered, or the connection accepted (see the class comment). */
        boolean served() {
            return answered() || connected;
        }
    }

    /**
     * One outage: the served sample before it, and the first served sample after it (absent: the group was
     * still not served at the last sample).
     *
     * @param lastServedMs  the last served sample before the gap, ms since the epoch
     * @param backMs        the first served sample after it
     * @param missed        the samples not served in between
     */
    record Outage(long lastServedMs, Optional<Long> backMs, int missed) {
        /** The gap in ms between the two served samples (an upper bound of the outage, to one sample period). */
        Optional<Long> ms() {
            return backMs.map(b -> b - lastServedMs);
        }
    }

    private ClientSamples() {
    }

    /**
     * The outages in {@code samples} (in time order): each maximal run of samples not served, with the served
     * samples around it. Samples not served before the first served one are not an outage of a served group
     * (the drill starts sampling once the group serves; {@link #leadingMisses} counts them).
     */
    static List<Outage> outages(List<Sample> samples) {
        List<Outage> out = new ArrayList<>();
        Long lastServed = null;
        int missed = 0;
        for (Sample s : samples) {
            if (s.served()) {
                if (lastServed != null && missed > 0) {
                    out.add(new Outage(lastServed, Optional.of(s.ms()), missed));
                }
                lastServed = s.ms();
                missed = 0;
            } else if (lastServed != null) {
                missed++;
            }
        }
        if (lastServed != null && missed > 0) {
            out.add(new Outage(lastServed, Optional.empty(), missed));
        }
        return out;
    }

    /** The samples not served before the first served one. */
    static int leadingMisses(List<Sample> samples) {
        int n = 0;
        for (Sample s : samples) {
            if (s.served()) {
                break;
            }
            n++;
        }
        return n;
    }

    /**
     * The samples in which the client saw two nodes: the answer came from one node while the client's neighbour
     * entry for the VIP, read right after, named the other. The GET went to the MAC the entry held when it was
     * sent, so such a sample means a second node answers for the VIP (its gratuitous ARP or ARP reply replaced the
     * entry) while the first still served the request.
     */
    static List<Sample> twoNodes(List<Sample> samples) {
        return samples.stream().filter(s -> s.answered() && !s.arpNode().isEmpty() && !s.arpNode().equals(s.answeredBy()))
                .toList();
    }

    /**
     * Parses one line the sampler script prints, {@code MS BODY MAC CONNECT_S} with {@code -} for no body or MAC,
     * CONNECT_S being curl's {@code time_connect} in seconds (0 when no connection was accepted).
     *
     * @throws IllegalArgumentException when the line is not of that form
     */
    static Sample parse(String line) {
        String[] f = line.trim().split(" ");
        if (f.length != 4 || !f[0].matches("[0-9]{1,15}") || !f[3].matches("[0-9]+(\\.[0-9]+)?")) {
            throw new IllegalArgumentException("not a sample line: [" + line + "]");
        }
        String body = f[1].equals("-") ? "" : f[1];
        String mac = f[2].toLowerCase(java.util.Locale.ROOT);
        String arp = mac.equals("-") ? "" : mac.endsWith(":00:01") ? "node1" : mac.endsWith(":00:02") ? "node2" : mac;
        return new Sample(Long.parseLong(f[0]), body, arp, Double.parseDouble(f[3]) > 0);
    }
}
