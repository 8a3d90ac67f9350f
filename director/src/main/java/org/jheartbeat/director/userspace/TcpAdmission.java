package org.jheartbeat.director.userspace;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The TCP connection bounds of the user-space director, over all its services: at most {@code max} open at once
 * and at most {@code perSource} of one client address, so one source cannot take the whole bound and lock the
 * others out. Thread-safe: services accept on several event loops.
 */
final class TcpAdmission {
    private final int max;
    private final int perSource;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> bySource = new ConcurrentHashMap<>();

    /**
     * @param max       connections at once, at least 1 (already lowered to what the descriptor limit allows)
     * @param perSource connections of one client address at once, at least 1
     */
    TcpAdmission(int max, int perSource) {
        if (max < 1 || perSource < 1) {
            throw new IllegalArgumentException("bounds must be at least 1");
        }
        this.max = max;
        this.perSource = perSource;
    }

    /** Why a connection was not admitted, or that it was. */
    enum Verdict { ADMITTED, FULL, SOURCE_FULL }

    /**
     * Takes a place for a connection from {@code source}; {@link #release} gives it back when it ends.
     *
     * @return {@link Verdict#ADMITTED}, or why not (then nothing was taken)
     */
    Verdict open(InetAddress source) {
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            return Verdict.FULL;
        }
        boolean[] ok = {false};
        bySource.compute(source, (a, n) -> {
            int now = n == null ? 0 : n;
            ok[0] = now < perSource;
            return ok[0] ? now + 1 : n;
        });
        if (!ok[0]) {
            open.decrementAndGet();
            return Verdict.SOURCE_FULL;
        }
        return Verdict.ADMITTED;
    }

    /** Gives back the place of an admitted connection from {@code source}. */
    void release(InetAddress source) {
        bySource.computeIfPresent(source, (a, n) -> n == 1 ? null : n - 1);
        open.decrementAndGet();
    }

    /** Connections open now. */
    int open() {
        return open.get();
    }

    /** The bound over all sources. */
    int max() {
        return max;
    }

    /** The bound per client address. */
    int perSource() {
        return perSource;
    }
}
