package org.jheartbeat.core.membership;

import java.util.BitSet;

/**
 * Sequence and generation bookkeeping for one peer, after Heartbeat 3.0.6 {@code should_drop_message}
 * and {@code is_lost_packet} (facts C.3). Every non-{@code NS_} message carries {@code hg} (the
 * sender's generation, bumped at each start) and {@code seq} (a per-process counter from 1).
 *
 * <p>With several media (two links) every message arrives more than once; the tracker is what makes
 * the second copy a {@link Verdict#DUPLICATE}. It remembers the last {@value #WINDOW} sequence numbers
 * (Heartbeat's {@code MAXMSGHIST}); a gap of more than {@value #MAX_GAP} resets tracking, as Heartbeat's
 * "lost a lot of packets!" does. Pure and not thread-safe.
 */
public final class SequenceTracker {
    /** How many recent sequence numbers are remembered. */
    public static final int WINDOW = 500;
    /** A jump larger than this resets tracking (Heartbeat's FLOWCONTROL_LIMIT). */
    public static final int MAX_GAP = 250;

    /** What to do with an incoming sequenced message. */
    public enum Verdict {
        /** First of its kind: process it. */
        ACCEPT,
        /** New generation: the peer restarted; tracking was reset and the message is accepted. */
        RESTART,
        /** Already seen (e.g. the copy from the second link): refresh the link, don't process again. */
        DUPLICATE,
        /**
         * Older generation than the one tracked: drop it without touching anything (a replay, or a
         * frame the peer's previous run left queued in a line).
         */
        REPLAY,
        /**
         * Current generation but behind the window: at least {@value #WINDOW} below the highest
         * sequence number seen, or below it and neither seen nor missing (older than a reset of
         * tracking). Heartbeat drops such a frame ({@code should_drop_message}: "a really old one we
         * lost track of"); it refreshes nothing.
         */
        STALE
    }

    /** Whether an older generation than the tracked one is a replay (always, but in tests that prove the rule). */
    private final boolean olderGenerationsAreReplays;
    private long generation = -1;
    private long lastSeq;
    private final BitSet seen = new BitSet(WINDOW);
    private final java.util.TreeSet<Long> missing = new java.util.TreeSet<>();

    /** A tracker that drops frames of older generations ({@link Verdict#REPLAY}), as Heartbeat does. */
    public SequenceTracker() {
        this(true);
    }

    /**
     * @param olderGenerationsAreReplays false only in tests proving the rule: a frame of any other generation
     *                                   than the tracked one is then a {@link Verdict#RESTART}
     */
    public SequenceTracker(boolean olderGenerationsAreReplays) {
        this.olderGenerationsAreReplays = olderGenerationsAreReplays;
    }

    /**
     * Classifies a message.
     *
     * @param hg  the message's generation
     * @param seq the message's sequence number (≥ 1)
     */
    public Verdict offer(long hg, long seq) {
        if (generation < 0 || hg > generation || hg < generation && !olderGenerationsAreReplays) {
            boolean restart = generation >= 0;
            reset(hg, seq);
            return restart ? Verdict.RESTART : Verdict.ACCEPT;
        }
        if (hg < generation) {
            return Verdict.REPLAY;
        }
        if (seq > lastSeq) {
            if (seq - lastSeq > MAX_GAP) {
                reset(hg, seq);
                return Verdict.ACCEPT;
            }
            for (long s = lastSeq + 1; s < seq; s++) {
                clear(s);
                missing.add(s);
            }
            while (!missing.isEmpty() && missing.first() <= seq - WINDOW) {
                missing.pollFirst();
            }
            lastSeq = seq;
            mark(seq);
            return Verdict.ACCEPT;
        }
        if (lastSeq - seq >= WINDOW) {
            return Verdict.STALE;
        }
        if (isSeen(seq)) {
            return Verdict.DUPLICATE;
        }
        if (!missing.remove(seq)) {
            return Verdict.STALE;
        }
        mark(seq);
        return Verdict.ACCEPT;
    }

    /** Generation currently tracked, or -1 before the first message. */
    public long generation() {
        return generation;
    }

    /** Highest sequence number seen in the current generation. */
    public long lastSeq() {
        return lastSeq;
    }

    /** How many sequence numbers below {@link #lastSeq()} have not arrived (gaps). */
    public long missingCount() {
        return missing.size();
    }

    /** The sequence numbers below {@link #lastSeq()} that have not arrived, ascending (at most {@value #WINDOW}). */
    public java.util.SortedSet<Long> missing() {
        return java.util.Collections.unmodifiableSortedSet(missing);
    }

    /**
     * The sender cannot retransmit {@code seq} ({@code NS_nak_rexmit}): stop waiting for it; should it
     * still arrive it is a duplicate.
     *
     * @return whether it was missing
     */
    public boolean giveUp(long seq) {
        if (missing.remove(seq)) {
            mark(seq);
            return true;
        }
        return false;
    }

    private void reset(long hg, long seq) {
        generation = hg;
        lastSeq = seq;
        seen.clear();
        missing.clear();
        mark(seq);
    }

    private void mark(long seq) {
        seen.set((int) (seq % WINDOW));
    }

    private void clear(long seq) {
        seen.clear((int) (seq % WINDOW));
    }

    private boolean isSeen(long seq) {
        return seen.get((int) (seq % WINDOW));
    }
}
