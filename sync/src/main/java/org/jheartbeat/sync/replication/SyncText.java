package org.jheartbeat.sync.replication;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/** How replication writes sizes, durations and a program's last words in its messages. */
public final class SyncText {
    private SyncText() {
    }

    /**
     * @param stderr a program's output
     * @return {@code ": LAST LINE"} of it, or "" when it is blank
     */
    static String lastLine(String stderr) {
        String[] lines = stderr.strip().split("\n");
        String last = lines[lines.length - 1].strip();
        return last.isEmpty() ? "" : ": " + last;
    }

    /**
     * Formats a byte count: {@code 512 B}, {@code 1.2 kB}, {@code 3.4 MB}, {@code 5.6 GB} (decimal units).
     *
     * @param n bytes
     * @return the text
     */
    public static String bytes(long n) {
        if (n < 1000) {
            return n + " B";
        }
        String[] u = {"kB", "MB", "GB", "TB"};
        double v = n;
        int i = -1;
        while (v >= 1000 && i < u.length - 1) {
            v /= 1000;
            i++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, u[i]);
    }

    /**
     * Formats a duration for log lines: {@code 1.4 s}, {@code 4m12s}, {@code 2h05m}, {@code 3d04h}.
     *
     * @param d the duration (negative is treated as zero)
     * @return the text
     */
    public static String human(Duration d) {
        long ms = Math.max(0, d.toMillis());
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        if (s < 86400) {
            return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
        }
        return String.format(Locale.ROOT, "%dd%02dh", s / 86400, s % 86400 / 3600);
    }

    /** Writes one line to a progress stream, if any; a closed stream is ignored (the job goes on). */
    static void header(OutputStream progress, String line) {
        if (progress == null) {
            return;
        }
        try {
            synchronized (progress) {
                progress.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                progress.flush();
            }
        } catch (IOException ignored) {
            // a closed progress stream must not stop the job
        }
    }

    /** The holder's pid as it wrote it, read through our own channel (no second descriptor). */
    static String readPid(FileChannel ch) {
        try {
            ByteBuffer b = ByteBuffer.allocate(32);
            ch.read(b, 0);
            String s = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).trim();
            return s.isEmpty() ? "?" : s;
        } catch (IOException e) {
            return "?";
        }
    }
}
