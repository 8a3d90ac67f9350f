package org.jheartbeat.director.userspace.sched;

/**
 * Deadlines kept in order, so that expiry visits what is due and nothing else. The kernel arms one timer per
 * connection entry; the model used to scan all its entries once a second under the service's lock (1–4 % of
 * the user-space director's CPU at 1,000–2,000 connections a second, with ~200,000 entries in TIME_WAIT).
 *
 * <p>A node sits in one of a few lanes, each a doubly linked list sorted by deadline. A lane is meant for one
 * timeout (one IPVS state): its deadlines, armed as "now + that timeout" on a monotonic clock, never decrease,
 * so arming appends at the tail in O(1). A deadline earlier than the tail's (a clock that went back, a lane of
 * mixed timeouts) is walked back to its place, so a lane is sorted whatever the caller does; equal deadlines
 * stay in the order they were armed, so entries of one timeout expire in the order they were armed.
 * Not thread-safe.
 *
 * @param <T> the nodes
 */
final class ExpiryLanes<T extends ExpiryLanes.Node> {

    /** What a lane holds: a deadline (ns, the caller's clock) and the links (this class's alone to change). */
    abstract static class Node {
        /** The deadline (ns); valid while armed. */
        long expiresAt;
        Node prev;
        Node next;
        int lane = -1;
    }

    private final Node[] heads;
    private final Node[] tails;
    private int size;

    /**
     * @param lanes how many lanes (0 … lanes-1)
     */
    ExpiryLanes(int lanes) {
        heads = new Node[lanes];
        tails = new Node[lanes];
    }

    /**
     * Arms {@code n} (again): deadline {@code at} in lane {@code lane}, behind every node of that lane whose
     * deadline is not later.
     *
     * @throws ArrayIndexOutOfBoundsException for a lane out of range
     */
    void arm(T n, int lane, long at) {
        if (n.lane == lane && n.next == null && (n.prev == null || at - n.prev.expiresAt >= 0)) {
            n.expiresAt = at; // the lane's last already and stays so: the common re-arm of a busy entry
            return;
        }
        remove(n);
        Node after = tails[lane];
        while (after != null && after.expiresAt - at > 0) {
            after = after.prev;
        }
        n.expiresAt = at;
        n.lane = lane;
        n.prev = after;
        n.next = after == null ? heads[lane] : after.next;
        if (n.next == null) {
            tails[lane] = n;
        } else {
            n.next.prev = n;
        }
        if (after == null) {
            heads[lane] = n;
        } else {
            after.next = n;
        }
        size++;
    }

    /** Disarms {@code n}; nothing when it is not armed. */
    void remove(T n) {
        removeNode(n);
    }

    private void removeNode(Node n) {
        int lane = n.lane;
        if (lane < 0) {
            return;
        }
        if (n.prev == null) {
            heads[lane] = n.next;
        } else {
            n.prev.next = n.next;
        }
        if (n.next == null) {
            tails[lane] = n.prev;
        } else {
            n.next.prev = n.prev;
        }
        n.prev = null;
        n.next = null;
        n.lane = -1;
        size--;
    }

    /** Whether {@code n} is armed. */
    boolean armed(T n) {
        return n.lane >= 0;
    }

    /** Armed nodes. */
    int size() {
        return size;
    }

    /**
     * Disarms and returns the node due at {@code now} (deadline ≤ now) with the earliest deadline, the lowest
     * lane first among equal ones; null when none is due.
     */
    @SuppressWarnings("unchecked")
    T pollDue(long now) {
        Node best = null;
        for (Node h : heads) {
            if (h != null && now - h.expiresAt >= 0 && (best == null || h.expiresAt - best.expiresAt < 0)) {
                best = h;
            }
        }
        if (best != null) {
            removeNode(best);
        }
        return (T) best;
    }
}
