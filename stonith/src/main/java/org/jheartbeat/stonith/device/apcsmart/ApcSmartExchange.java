package org.jheartbeat.stonith.device.apcsmart;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The pure timing engine under {@link ApcSmartDialogue}: one command at a time, paced and read the way
 * cluster-glue's {@code APC_send_cmd}/{@code APC_recv_rsp} do it (facts §1.2). Input received before a
 * command starts is discarded ({@code tcflush(TCIFLUSH)}); each byte is followed by a
 * {@value #SEND_DELAY_MS} ms pause; the reply deadline ({@value #REPLY_TIMEOUT_MS} ms) starts after the
 * last pause and covers the whole reply. No clock is read: every entry point takes {@code nowNanos}.
 */
final class ApcSmartExchange {
    /** Pause after every byte sent, ms ({@code SEND_DELAY} 50000 µs). */
    static final long SEND_DELAY_MS = 50;
    /** Whole-reply timeout, ms ({@code SERIAL_TIMEOUT} 3 s). */
    static final long REPLY_TIMEOUT_MS = 3000;
    private static final long MS = 1_000_000L;

    private enum Activity { IDLE, SENDING, AWAITING_REPLY, PAUSING }

    private Activity activity = Activity.IDLE;
    private byte[] command = new byte[0];
    private int sent;
    private long nextAt;
    private Consumer<ApcSmartReply> onReply;
    private Runnable onDone;
    private final byte[] buf = new byte[ApcSmartReply.MAX_LENGTH + 1];
    private int bufLen;
    private long now;
    private final List<String> transcript = new ArrayList<>();
    private final List<Long> transcriptTimes = new ArrayList<>();

    /** Sends {@code cmd} and hands its reply (or timeout) to {@code then}. */
    void exchange(String cmd, Consumer<ApcSmartReply> then) {
        begin(cmd);
        onReply = then;
        onDone = null;
    }

    /** Sends {@code cmd}, expecting no reply ({@code Z}, {@code ^N}); {@code then} runs after the last pause. */
    void sendOnly(String cmd, Runnable then) {
        begin(cmd);
        onReply = null;
        onDone = then;
    }

    /** Waits {@code ms} milliseconds ({@code sleep()} in the plugin), then runs {@code then}. */
    void pause(long ms, Runnable then) {
        activity = Activity.PAUSING;
        nextAt = now + ms * MS;
        onDone = then;
        onReply = null;
    }

    /** Stops whatever is in progress; nothing more is sent. */
    void stop() {
        activity = Activity.IDLE;
        onReply = null;
        onDone = null;
    }

    private void begin(String cmd) {
        activity = Activity.SENDING;
        command = cmd.getBytes(US_ASCII);
        sent = 0;
        nextAt = now;
        bufLen = 0; // tcflush(TCIFLUSH)
        note("< " + printable(cmd));
    }

    /** Sets the current time; callers do this at every entry point before anything else. */
    void at(long nowNanos) {
        now = nowNanos;
    }

    long now() {
        return now;
    }

    /** Bytes from the UPS; kept only while a command expecting a reply is in progress. */
    void received(byte[] data, int len) {
        if (activity != Activity.SENDING && activity != Activity.AWAITING_REPLY || onReply == null) {
            return;
        }
        int n = Math.min(len, buf.length - bufLen);
        System.arraycopy(data, 0, buf, bufLen, n);
        bufLen += n;
    }

    /**
     * Runs every transition that is due at the current time (completing replies, timeouts, pauses — which
     * may start the next command) and returns the byte to send now, if any (at most one per call).
     */
    byte[] advance() {
        for (int guard = 0; guard < 1000; guard++) {
            if (activity == Activity.SENDING && now >= nextAt) {
                if (sent < command.length) {
                    nextAt = now + SEND_DELAY_MS * MS;
                    return new byte[] {command[sent++]};
                }
                if (onReply != null) {
                    activity = Activity.AWAITING_REPLY;
                    nextAt = now + REPLY_TIMEOUT_MS * MS;
                } else {
                    finish();
                }
            } else if (activity == Activity.AWAITING_REPLY) {
                Optional<ApcSmartReply> reply = ApcSmartReply.decode(buf, bufLen);
                if (reply.isEmpty() && now < nextAt) {
                    return new byte[0];
                }
                ApcSmartReply r = reply.orElseGet(() -> ApcSmartReply.timedOut(buf, bufLen));
                note(r.ok() ? "> " + printable(r.text()) : "> (" + r.code() + ") " + printable(r.text()));
                Consumer<ApcSmartReply> then = onReply;
                activity = Activity.IDLE;
                onReply = null;
                then.accept(r);
            } else if (activity == Activity.PAUSING && now >= nextAt) {
                finish();
            } else {
                return new byte[0];
            }
        }
        throw new IllegalStateException("APC Smart dialogue does not settle");
    }

    private void finish() {
        Runnable then = onDone;
        activity = Activity.IDLE;
        onDone = null;
        then.run();
    }

    /** When {@link #advance()} next has something to do, ns; {@link Long#MAX_VALUE} when idle. */
    long nextDeadlineNanos() {
        return activity == Activity.IDLE ? Long.MAX_VALUE : nextAt;
    }

    /** Commands sent ({@code < Y}) and replies read ({@code > SM}), for logs and tests. */
    List<String> transcript() {
        return List.copyOf(transcript);
    }

    /**
     * As {@link #transcript()}, each entry prefixed with its time in ms after {@code startNanos}
     * ({@code +1234 < Y}): when a command began and when its reply was complete (or timed out), so a debug
     * log shows where an operation's time goes.
     */
    List<String> timedTranscript(long startNanos) {
        List<String> out = new ArrayList<>(transcript.size());
        for (int i = 0; i < transcript.size(); i++) {
            out.add("+" + (transcriptTimes.get(i) - startNanos) / MS + " " + transcript.get(i));
        }
        return out;
    }

    private void note(String entry) {
        transcript.add(entry);
        transcriptTimes.add(now);
    }

    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c >= 32 && c < 127 ? String.valueOf(c) : String.format("^%c", (char) (c + 64)));
        }
        return b.toString();
    }
}
