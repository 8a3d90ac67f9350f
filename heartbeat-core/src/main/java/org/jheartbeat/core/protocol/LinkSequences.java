package org.jheartbeat.core.protocol;

import java.util.HashMap;
import java.util.Map;

/**
 * The newest frame (generation, sequence number) the peer's frames reached us with on each link. The
 * same message arrives once per link (eth0, eth1, the serial line), so a copy of the newest message
 * legitimately proves a second link alive; but a frame that a link has already carried, or an older
 * one, proves nothing about that link: it was duplicated in the network or replayed by someone who
 * recorded it. Without this, a replay of the peer's last frames keeps its links "up" in
 * {@code hb status} long after the peer died. Pure; one instance per engine (loop thread).
 */
final class LinkSequences {
    private final Map<String, long[]> newest = new HashMap<>();

    /**
     * Records that {@code link} carried the peer's frame {@code (generation, seq)}.
     *
     * @param seq the frame's sequence number, greater than 0 (unsequenced frames are not tracked)
     * @return true when the frame is newer on that link than every frame it carried before (a
     *         later generation, or a higher seq in the same one); false for a repeat or an older frame
     */
    boolean newOn(String link, long generation, long seq) {
        long[] last = newest.get(link);
        if (last != null && (generation < last[0] || (generation == last[0] && seq <= last[1]))) {
            return false;
        }
        newest.put(link, new long[] {generation, seq});
        return true;
    }
}
