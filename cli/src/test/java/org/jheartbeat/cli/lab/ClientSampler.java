package org.jheartbeat.cli.lab;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The client of a lab drill: run inside the client's network namespace ({@code ip netns exec NS java -cp …
 * ClientSampler OUT VIP:PORT…}), it asks every service every 100 ms, one thread per service, and appends one
 * line per sample to OUT (flushed at once):
 * {@code NANOS WALL_MS VIP:PORT ok|fail BODY|- MAC|-}, where NANOS is {@link System#nanoTime()} when the request
 * was sent (CLOCK_MONOTONIC, the same clock as the test's JVM on Linux), WALL_MS the wall clock then (ms since
 * the epoch, to find the sample in the daemons' logs), BODY the answer's body (the answering
 * node's host name), MAC the client's neighbour entry for the VIP read from its own {@code /proc/net/arp}
 * right after the answer (which node's NIC the request went to). A request gets 300 ms to connect and 300 ms
 * for the answer; one that takes longer than the period delays that service's next sample (the times say
 * so). Runs until killed.
 */
public final class ClientSampler {
    static final long PERIOD_MS = 100;
    static final int TIMEOUT_MS = 300;

    private ClientSampler() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.US_ASCII);
        List<Thread> threads = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String target = args[i];
            Thread t = new Thread(() -> sample(target, w), "sample " + target);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    private static void sample(String target, BufferedWriter w) {
        String vip = target.substring(0, target.indexOf(':'));
        int port = Integer.parseInt(target.substring(target.indexOf(':') + 1));
        long next = System.nanoTime();
        while (true) {
            long t = System.nanoTime();
            long wall = System.currentTimeMillis();
            String body = get(vip, port);
            String mac = mac(vip);
            String line = String.format(Locale.ROOT, "%d %d %s %s %s %s%n", t, wall, target, body == null ? "fail" : "ok",
                    body == null || body.isBlank() ? "-" : body, mac);
            synchronized (w) {
                try {
                    w.write(line);
                    w.flush();
                } catch (IOException e) {
                    return;
                }
            }
            next += PERIOD_MS * 1_000_000;
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                try {
                    Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            } else {
                next = System.nanoTime(); // late: no burst of catch-up samples
            }
        }
    }

    /** The body of {@code GET /} (trimmed), or null when there is no complete answer in time. */
    static String get(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
            s.setSoTimeout(TIMEOUT_MS);
            OutputStream o = s.getOutputStream();
            o.write(("GET / HTTP/1.0\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            o.flush();
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            int head = answer.indexOf("\r\n\r\n");
            if (!answer.startsWith("HTTP/1.0 200") || head < 0) {
                return null;
            }
            return answer.substring(head + 4).trim().replace(' ', '_');
        } catch (IOException e) {
            return null;
        }
    }

    /** The complete neighbour entry's MAC for {@code ip} in this namespace's ARP table, or "-". */
    static String mac(String ip) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/net/arp"))) {
                String[] f = l.trim().split("\\s+");
                if (f.length >= 4 && f[0].equals(ip) && f[2].equals("0x2")) {
                    return f[3].toLowerCase(Locale.ROOT);
                }
            }
        } catch (IOException e) {
            return "-";
        }
        return "-";
    }
}
