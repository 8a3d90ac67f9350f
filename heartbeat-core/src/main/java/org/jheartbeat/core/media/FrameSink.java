package org.jheartbeat.core.media;

/** Receives whole inbound frames from a {@link Medium}. Must not block: post to the loop and return. */
@FunctionalInterface
public interface FrameSink {
    /**
     * @param link   the medium's link name
     * @param source where the frame came from, e.g. {@code 198.18.1.2:41234}
     * @param frame  the frame's bytes (owned by the callee from now on)
     */
    void onFrame(String link, String source, byte[] frame);
}
