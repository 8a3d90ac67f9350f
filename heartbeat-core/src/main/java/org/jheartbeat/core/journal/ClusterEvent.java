package org.jheartbeat.core.journal;

import java.util.Objects;

/**
 * One journal entry: at {@code wallMillis} (ms since the epoch, this node's wall clock), on node
 * {@code node}, {@code kind} happened to {@code subject}, because of {@code cause}, at the request of
 * {@code by}, and it took {@code durationMillis}.
 *
 * @param seq            this node's journal sequence number, from 1, increasing by one per event and
 *                       kept across restarts ({@code 0} before the journal numbers it)
 * @param wallMillis     when, in ms since the epoch
 * @param node           the node that recorded it (its uname)
 * @param kind           what happened
 * @param subject        what it happened to: a node, {@code node/link}, a group key, a set
 *                       ({@code all}, {@code local}, {@code foreign}), {@code vip:port/real:port};
 *                       empty if nothing in particular
 * @param cause          why, in the words the log uses; empty if none is known
 * @param by             who asked ({@code uid 0 (pid 4242 hb)}, {@code peer node2}, {@code web alice});
 *                       empty when the daemon acted on its own
 * @param durationMillis how long it took or lasted, in ms; {@code -1} if it has no duration
 */
public record ClusterEvent(long seq, long wallMillis, String node, EventKind kind, String subject, String cause,
        String by, long durationMillis) {

    /** Longest subject, cause or by kept, in characters; longer text is cut and ends in {@code ...}. */
    public static final int MAX_TEXT = 512;

    public ClusterEvent {
        Objects.requireNonNull(kind, "kind");
        node = clip(node);
        subject = clip(subject);
        cause = clip(cause);
        by = clip(by);
        if (durationMillis < -1) {
            durationMillis = -1;
        }
    }

    /** An event not numbered yet, with no requester and no duration. */
    public static ClusterEvent of(long wallMillis, String node, EventKind kind, String subject, String cause) {
        return new ClusterEvent(0, wallMillis, node, kind, subject, cause, "", -1);
    }

    /** This event with sequence number {@code n}. */
    public ClusterEvent numbered(long n) {
        return new ClusterEvent(n, wallMillis, node, kind, subject, cause, by, durationMillis);
    }

    /** This event asked for by {@code who}. */
    public ClusterEvent by(String who) {
        return new ClusterEvent(seq, wallMillis, node, kind, subject, cause, who, durationMillis);
    }

    /** This event lasting {@code millis} ms. */
    public ClusterEvent lasting(long millis) {
        return new ClusterEvent(seq, wallMillis, node, kind, subject, cause, by, millis);
    }

    private static String clip(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(s.length(), MAX_TEXT));
        for (int i = 0; i < s.length() && out.length() < MAX_TEXT; i++) {
            char c = s.charAt(i);
            // one event is one line in every output: control characters become spaces
            out.append(c < 0x20 || c == 0x7f ? ' ' : c);
        }
        if (s.length() > MAX_TEXT) {
            out.setLength(MAX_TEXT - 3);
            out.append("...");
        }
        return out.toString();
    }
}
