package org.jheartbeat.cli.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The client's view of one resource group for a migration drill: a bash loop in the lab's client namespace
 * ({@code ip netns exec LAB-cl}) that GETs {@code http://VIP:PORT/} with curl (0.5 s timeout), reads the
 * neighbour entry of the VIP ({@code ip neigh show VIP dev eth0}), prints {@code MS BODY MAC CONNECT_S} (curl's
 * {@code time_connect}: 0 when no connection was accepted) and sleeps 100 ms,
 * until {@link #close()} ends it (by its process handle). One loop per group, so one group's outage (each GET
 * then waits its timeout) does not slow the other's sampling. {@link ClientSamples} reads the lines.
 */
final class GroupSampler implements AutoCloseable {
    private static final String SCRIPT = """
            vip=$1 port=$2
            while :; do
                t=$(date +%s%3N)
                r=$(curl -s -f -m 0.5 -w '\\n%{time_connect}' "http://$vip:$port/" 2>/dev/null)
                c=${r##*$'\\n'}
                b=${r%$'\\n'*}
                [[ $b == "$r" ]] && b=
                [[ $c =~ ^[0-9]+([.][0-9]+)?$ ]] || c=0
                m=$(ip neigh show "$vip" dev eth0 2>/dev/null | awk '{for (i = 1; i < NF; i++) if ($i == "lladdr") print $(i + 1)}')
                b=${b//[[:space:]]/}
                echo "$t ${b:--} ${m:--} $c"
                sleep 0.1
            done
            """;

    private final Path out;
    private final Process process;

    /** Starts sampling {@code vip:port}; the lines go to {@code RUN/client-NAME.samples}. */
    GroupSampler(Lab lab, String name, String vip, int port) throws IOException {
        this.out = lab.runDir().resolve("client-" + name + ".samples");
        Path script = lab.runDir().resolve("client-sampler.sh");
        Files.writeString(script, SCRIPT, StandardCharsets.UTF_8);
        this.process = new ProcessBuilder("ip", "netns", "exec", lab.clientNamespace(), "bash", script.toString(), vip,
                "" + port).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    }

    /** The samples so far, in time order (a line being written is left out). */
    List<ClientSamples.Sample> samples() throws IOException {
        String text = Files.readString(out, StandardCharsets.UTF_8);
        List<ClientSamples.Sample> s = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.matches("[0-9]+ \\S+ \\S+ [0-9.]+")) {
                s.add(ClientSamples.parse(line));
            }
        }
        return s;
    }

    /** The newest sample, or none yet. */
    java.util.Optional<ClientSamples.Sample> last() throws IOException {
        List<ClientSamples.Sample> s = samples();
        return s.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(s.get(s.size() - 1));
    }

    /** Ends the loop and the curl or sleep it runs (this process and its descendants, by handle). */
    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /**
     * Whether a group's service listens on both nodes at one instant: {@code ss -Hltn} in node1's, node2's, then
     * node1's network namespace again, about every 200 ms (the three-probe rule of {@link Lab#heldByBoth}: one move
     * between probes can never make all three true). Covers every port given in one round.
     */
    static final class ListenWatch implements AutoCloseable {
        private final Lab lab;
        private final List<Integer> ports;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<String> doubles = Collections.synchronizedList(new ArrayList<>());
        private final Thread thread;
        private volatile int rounds;

        ListenWatch(Lab lab, List<Integer> ports) {
            this.lab = lab;
            this.ports = List.copyOf(ports);
            this.thread = new Thread(this::loop, "listen-watch");
            thread.setDaemon(true);
            thread.start();
        }

        private String listening(String node) throws Exception {
            return lab.run(List.of("ip", "netns", "exec", lab.namespace(node), "ss", "-Hltn"), 10).output();
        }

        private void loop() {
            while (running.get()) {
                try {
                    String a = listening("node1");
                    String b = listening("node2");
                    String c = listening("node1");
                    for (int p : ports) {
                        String port = ":" + p + " ";
                        if (a.contains(port) && b.contains(port) && c.contains(port)) {
                            doubles.add(System.currentTimeMillis() + ": port " + p + " listens on node1 and node2");
                        }
                    }
                    rounds++;
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    doubles.add("ss failed: " + e.getMessage());
                }
            }
        }

        /** Rounds of three probes so far. */
        int rounds() {
            return rounds;
        }

        /** The moments both nodes listened (or a probe failed), at most the first 5. */
        List<String> doubles() {
            synchronized (doubles) {
                return List.copyOf(doubles.subList(0, Math.min(5, doubles.size())));
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(15_000);
        }
    }
}
