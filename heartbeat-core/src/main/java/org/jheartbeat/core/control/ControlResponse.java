package org.jheartbeat.core.control;

/**
 * An answer on the control socket.
 *
 * @param ok    whether the request succeeded
 * @param error the reason when not ok (one line), else empty
 * @param body  the text to print (may be empty)
 */
public record ControlResponse(boolean ok, String error, String body) {
    public static ControlResponse ok(String body) {
        return new ControlResponse(true, "", body);
    }

    public static ControlResponse error(String reason) {
        return new ControlResponse(false, reason.replace('\n', ' '), "");
    }
}
