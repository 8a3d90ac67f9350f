package org.jheartbeat.core.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jheartbeat.core.media.serial.SendQueue;
import org.jheartbeat.core.media.serial.SerialMedium;
import org.jheartbeat.core.wire.Traffic;
import org.jheartbeat.core.wire.WirePacket;

/**
 * The two simulated media between the nodes, each direction on its own: {@code eth1}, a UDP-like link
 * (netstring datagrams, about 0.2 ms, out of order when delays vary), and {@code /dev/ttyS0}, a
 * serial-like line (classic frames, in order, one byte every 10/19200 s). Each of the four directions
 * ({@link Pipe}) can drop, delay, duplicate and corrupt frames, be cut, and replay any frame it ever
 * carried. Every frame a node sends goes on both media, as the daemon does; on the serial line a
 * frame sent while the line is busy waits in the sender's writer queue, the real {@link SendQueue}.
 */
final class SimMedia {
    /** Link names as the engines know them ({@code MediumDecl.linkName}). */
    static final String[] LINK_NAMES = {"eth1", "/dev/ttyS0"};
    /** Where frames come from, for the engines' bad-packet accounting, by sending node. */
    static final String[][] SOURCES = {{"198.18.1.1:694", "/dev/ttyS0"}, {"198.18.1.2:694", "/dev/ttyS0"}};
    private static final long UDP_LATENCY_NANOS = 200_000L;
    /** The serial line's speed, bits/s. */
    static final int BAUD = 19200;
    /** Nanoseconds per byte on the 19200 baud line (10 bits a byte). */
    private static final long SERIAL_NANOS_PER_BYTE = 10 * 1_000_000_000L / BAUD;

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
        /**
         * The sending node's serial writer queue (the real {@link SendQueue}, sized as {@code SerialMedium}
         * sizes it): what waits while the line is busy; null for {@code eth1}.
         */
        final SendQueue queue;
        /** A task is scheduled to put the queue's next frame on the line when it frees up. */
        boolean pumping;
        long sent;
        long dropped;

        Pipe(int link, int from, SplittableRandom random) {
            this.link = link;
            this.from = from;
            this.random = random;
            this.queue = link == 1 ? new SendQueue(SerialMedium.sendQueueBytes(BAUD)) : null;
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
        /**
         * @param original the frame as sent ({@code frame} is a corrupted copy when it is not the same array)
         */
        void deliver(long atNanos, int to, int link, byte[] frame, byte[] original);
    }

    /** The simulator's clock, for the serial line's next frame. */
    interface Scheduler {
        void at(long atNanos, Runnable action);
    }

    final Pipe[][] pipes = new Pipe[2][2]; // [link][from]
    private final Scheduler scheduler;
    private final Delivery out;

    /**
     * @param scheduler runs the serial line's next frame when it frees up
     * @param out       delivers every frame (of {@link #send}; replays are delivered to their own callback)
     */
    SimMedia(SplittableRandom random, Scheduler scheduler, Delivery out) {
        this.scheduler = scheduler;
        this.out = out;
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

    /**
     * Node {@code from} sends {@code packet}: onto both media, through each pipe's faults. On the serial
     * line a frame goes at once when the line is free; otherwise it waits in the sender's writer queue
     * (the real {@link SendQueue}: beats first, retransmissions dropped first, 4 s of line time at most),
     * and goes when the line frees up.
     */
    void send(long now, int from, WirePacket packet, Traffic traffic) {
        for (int l = 0; l < 2; l++) {
            Pipe p = pipes[l][from];
            byte[] frame = l == 0 ? packet.netstring() : packet.classic();
            p.history.add(frame);
            p.sent++;
            if (l == 1 && (p.busyUntil > now || p.pumping)) {
                long before = p.queue.dropped();
                p.queue.offer(frame, traffic);
                p.dropped += p.queue.dropped() - before;
                if (!p.pumping) {
                    p.pumping = true;
                    scheduler.at(p.busyUntil, () -> pump(p));
                }
                continue;
            }
            wire(now, p, frame);
        }
    }

    /** The serial line freed up: the queue's next frame goes on it, and so on while frames wait. */
    private void pump(Pipe p) {
        byte[] frame = p.queue.poll();
        if (frame == null) {
            p.pumping = false;
            return;
        }
        wire(p.busyUntil, p, frame);
        scheduler.at(p.busyUntil, () -> pump(p));
    }

    /** One frame onto the wire of {@code p} at {@code now}, through its faults. */
    private void wire(long now, Pipe p, byte[] frame) {
        if (p.cut() || !p.loss.isEmpty() && p.random.nextInt(100) < Pipe.max(p.loss)) {
            p.dropped++;
            return;
        }
        int copies = !p.duplicate.isEmpty() && p.random.nextInt(100) < Pipe.max(p.duplicate) ? 2 : 1;
        for (int c = 0; c < copies; c++) {
            long extra = p.delay.isEmpty() ? 0 : p.random.nextLong(Pipe.max(p.delay) * 1_000_000L + 1);
            long at;
            if (p.link == 0) {
                at = now + UDP_LATENCY_NANOS + extra;
            } else {
                // the line sends one frame after the other: never out of order (a delay holds the line)
                at = Math.max(now + extra, p.busyUntil) + frame.length * SERIAL_NANOS_PER_BYTE;
                p.busyUntil = at;
            }
            boolean corrupt = !p.corrupt.isEmpty() && p.random.nextInt(100) < Pipe.max(p.corrupt);
            out.deliver(at, 1 - p.from, p.link, corrupt ? flip(frame, p.random) : frame, frame);
        }
    }

    /** Node {@code from}'s daemon ended: what its serial writer still queued is gone with it. */
    void senderGone(int from) {
        Pipe p = pipes[1][from];
        p.dropped += p.queue.clear();
    }

    /** Delivers {@code count} frames picked at random from what {@code p} ever carried, now. */
    void replay(long now, Pipe p, int count, Delivery out) {
        for (int i = 0; i < count && !p.history.isEmpty(); i++) {
            byte[] frame = p.history.get(p.random.nextInt(p.history.size()));
            out.deliver(now + UDP_LATENCY_NANOS, 1 - p.from, p.link, frame, frame);
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
