package org.jheartbeat.cli.web;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.journal.ClusterEvent;

/**
 * What the console knows at one moment, as the pages render it.
 *
 * @param local       this node's name (the daemon's {@code node}), or empty when the daemon did not answer
 * @param status      the daemon's {@code status-json} object (schema {@code jheartbeat.status/1}), or empty
 * @param statusError why there is no status (the daemon is not running, refused, ...), or empty
 * @param events      both journals merged in time order ({@link Timeline#merge})
 * @param localJournalError why this node's journal could not be read, or empty
 * @param peer        the peer's name, or empty when there is none
 * @param peerError   why the peer's journal could not be fetched (it is shown as it was last fetched), or empty
 * @param peerFetchedMillis when the peer's journal was last fetched, ms since the epoch; 0: never
 * @param director    the director's {@code status} JSON object, or empty when no director answers
 * @param directorError why there is no director table, or empty
 * @param nowMillis   when this was taken, ms since the epoch
 */
public record Snapshot(String local, Optional<Map<String, Object>> status, String statusError, List<ClusterEvent> events,
                       String localJournalError, String peer, String peerError, long peerFetchedMillis,
                       Optional<Map<String, Object>> director, String directorError, long nowMillis) {
    public Snapshot {
        events = List.copyOf(events);
    }

    /** A short fingerprint of what a page shows: it changes when a page would change (the SSE pushes then). */
    public String fingerprint() {
        long lastSeq = events.isEmpty() ? 0 : events.get(events.size() - 1).seq();
        return Integer.toHexString(java.util.Objects.hash(status.map(s -> {
            Map<String, Object> copy = new java.util.TreeMap<>(s);
            copy.remove("media"); // counters that move with every beat are not a change worth a refresh
            copy.remove("frames_from_before");
            return copy.toString();
        }).orElse(""), statusError, events.size(), lastSeq, peerError, director.map(Object::toString).orElse(""),
                directorError));
    }
}
