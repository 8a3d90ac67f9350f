package org.jheartbeat.resources.names;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.core.exec.ProcessResult;

/**
 * What one {@code nsupdate} run said: success, or the server's answer (an RFC 2136 RCODE such as
 * {@code REFUSED} or {@code NOTAUTH}) or nsupdate's own complaint (no server reached, a bad key file).
 * Pure.
 *
 * @param ok     exit 0
 * @param rcode  the RCODE of {@code update failed: RCODE}, when the server answered with one
 * @param detail nsupdate's error lines joined with "; " (empty on success)
 */
public record NsupdateOutcome(boolean ok, Optional<String> rcode, String detail) {
    private static final Pattern FAILED = Pattern.compile("update failed: ([A-Z]+)");
    private static final int MAX_DETAIL = 300;

    /**
     * @param result the finished nsupdate
     * @return its outcome
     */
    public static NsupdateOutcome of(ProcessResult result) {
        if (result.succeeded()) {
            return new NsupdateOutcome(true, Optional.empty(), "");
        }
        String text = (result.stderr() + "\n" + result.stdout()).strip();
        Matcher m = FAILED.matcher(text);
        Optional<String> rcode = m.find() ? Optional.of(m.group(1)) : Optional.empty();
        String detail = String.join("; ", text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
        if (result.timedOut()) {
            detail = "timed out" + (detail.isEmpty() ? "" : ": " + detail);
        } else if (detail.isEmpty()) {
            detail = "exit code " + result.exitCode() + ", no message";
        }
        if (detail.length() > MAX_DETAIL) {
            detail = detail.substring(0, MAX_DETAIL) + "...";
        }
        return new NsupdateOutcome(false, rcode, detail);
    }
}
