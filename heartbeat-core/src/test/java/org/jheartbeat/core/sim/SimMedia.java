package org.jheartbeat.core.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jheartbeat.core.wire.WirePacket;

/**
 * The two simulated media between the nodes, each direction on its own: {@code eth1}, a UDP-like link
 * (netstring datagrams, about 0.2 ms, out of order when delays vary), and {@code /dev/ttyS0}, a
 * serial-like line (classic frames, in order, one byte every 10/19200 s). Each of the four directions
 * ({@link Pipe}) can drop, delay, duplicate and corrupt frames, be cut, and replay any frame it ever
 * carried. Every frame a node sends goes on both media, as the daemon does.
 */
final class SimMedia {
    /** Link names as the engines know them ({@code MediumDecl.linkName}). */
    static final String[] LINK_NAMES = {"eth1", "/dev/ttyS0"};
    /** Where frames come from, for the engines' bad-packet accounting, by sending node. */
    static final String[][] SOURCES = {{"198.18.1.1:694", "/dev/ttyS0"}, {"198.18.1.2:694", "/dev/ttyS0"}};
    private static final long UDP_LATENCY_NANOS = 200_000L;
    /** Nanoseconds per byte on the 19200 baud line (10 bits a byte). */
    private static final long SERIAL_NANOS_PER_BYTE = 10 * 1_000_000_000L / 19200;

    /** One direction of one medium and its faults (several windows of one kind may overlap: the worst wins). */
    static final class Pipe {
        final int link;
        final int from;
        final SplittableRandom random;
        /** Every frame sent into this pipe, oldest first (what a replay picks from). */
        final List<byte[]> history = new ArrayList<>();
        final List<Integer> loss = new ArrayList<>();
        final List<Integer> delay = new ArrayList<>();
        final List<Integer> duplicate = new ArrayList<>();
        final List<Integer> corrupt = new ArrayList<>();
        int cuts;
        int flaps;
        boolean flapCut;
        /** The serial line is busy sending until then (ns). */
        long busyUntil;
        long sent;
        long dropped;

        Pipe(int link, int from, SplittableRandom random) {
            this.link = link;
            this.from = from;
            this.random = random;
        }

        boolean cut() {
            return cuts > 0 || flapCut;
        }

        /** Carries every frame sent now, unharmed and in time (what "the link works" means for the invariants). */
        boolean clean() {
            return !cut() && max(loss) == 0 && max(corrupt) == 0 && max(delay) <= 1000;
        }

        static int max(List<Integer> values) {
            int m = 0;
            for (int v : values) {
                m = Math.max(m, v);
            }
            return m;
        }
    }

    /** Where a frame is to be delivered: the simulator schedules it. */
    interface Delivery {
        void deliver(long atNanos, int to, int link, byte[] frame, boolean corrupted);
    }

    final Pipe[][] pipes = new Pipe[2][2]; // [link][from]

    SimMedia(SplittableRandom random) {
        for (int l = 0; l < 2; l++) {
            for (int f = 0; f < 2; f++) {
                pipes[l][f] = new Pipe(l, f, random.split());
            }
        }
    }

    /** The pipes an event's {@code target} (link 0, 1 or 2: both) and {@code dir} (0, 1 or 2: both) name. */
    List<Pipe> select(int target, int dir) {
        List<Pipe> out = new ArrayList<>(4);
        for (int l = 0; l < 2; l++) {
            for (int f = 0; f < 2; f++) {
                if ((target == 2 || target == l) && (dir == 2 || dir == f)) {
                    out.add(pipes[l][f]);
                }
            }
        }
        return out;
    }

    /** Whether frames from node {@code from} reach the other node unharmed on at least one medium now. */
    boolean cleanFrom(int from) {
        return pipes[0][from].clean() || pipes[1][from].clean();
    }

    /** Node {@code from} sends {@code packet}: onto both media, through each pipe's faults. */
    void send(long now, int from, WirePacket packet, Delivery out) {
        for (int l = 0; l < 2; l++) {
            Pipe p = pipes[l][from];
            byte[] frame = l == 0 ? packet.netstring() : packet.classic();
            p.history.add(frame);
            p.sent++;
            if (p.cut() || !p.loss.isEmpty() && p.random.nextInt(100) < Pipe.max(p.loss)) {
                p.dropped++;
                continue;
            }
            int copies = !p.duplicate.isEmpty() && p.random.nextInt(100) < Pipe.max(p.duplicate) ? 2 : 1;
            for (int c = 0; c < copies; c++) {
                long extra = p.delay.isEmpty() ? 0 : p.random.nextLong(Pipe.max(p.delay) * 1_000_000L + 1);
                long at;
                if (l == 0) {
                    at = now + UDP_LATENCY_NANOS + extra;
                } else {
                    // the line sends one frame after the other: never out of order
                    at = Math.max(now + extra, p.busyUntil) + frame.length * SERIAL_NANOS_PER_BYTE;
                    p.busyUntil = at;
                }
                boolean corrupt = !p.corrupt.isEmpty() && p.random.nextInt(100) < Pipe.max(p.corrupt);
                out.deliver(at, 1 - from, l, corrupt ? flip(frame, p.random) : frame, corrupt);
            }
        }
    }

    /** Delivers {@code count} frames picked at random from what {@code p} ever carried, now. */
    void replay(long now, Pipe p, int count, Delivery out) {
        for (int i = 0; i < count && !p.history.isEmpty(); i++) {
            byte[] frame = p.history.get(p.random.nextInt(p.history.size()));
            out.deliver(now + UDP_LATENCY_NANOS, 1 - p.from, p.link, frame, false);
        }
    }

    /** A copy of {@code frame} with one byte changed (never to itself). */
    static byte[] flip(byte[] frame, SplittableRandom random) {
        byte[] copy = frame.clone();
        int at = random.nextInt(copy.length);
        copy[at] = (byte) (copy[at] ^ (1 + random.nextInt(255)));
        return copy;
    }
}
