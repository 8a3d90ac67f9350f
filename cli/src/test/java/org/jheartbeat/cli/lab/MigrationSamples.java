package org.jheartbeat.cli.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a drill's client saw ({@link ClientSampler}'s lines), and the checks on it. Pure: a list of samples in,
 * figures and findings out. Times are {@link System#nanoTime()} values (CLOCK_MONOTONIC, shared by the
 * sampler's and the test's JVMs).
 */
final class MigrationSamples {
    /** One request to one service: sent at {@code nanos}, answered by {@code body} ("-" if none), via {@code mac}. */
    record Sample(long nanos, String target, boolean ok, String body, String mac) {
        /** The lab node whose eth0 has {@code mac} (02:00:c6:12:00:0N is nodeN's), or empty. */
        Optional<String> macNode() {
            return mac.matches("02:00:c6:12:00:0[12]") ? Optional.of("node" + mac.charAt(mac.length() - 1))
                    : Optional.empty();
        }

        /** Answered by a node whose name and neighbour entry disagree: two nodes reachable at one VIP. */
        boolean mixed() {
            return ok && macNode().isPresent() && !macNode().get().equals(body);
        }
    }

    private final List<Sample> samples;

    MigrationSamples(List<Sample> samples) {
        this.samples = List.copyOf(samples);
    }

    /** Reads a sampler's file (a torn last line, written while it was read, is left out; no file yet: none). */
    static MigrationSamples read(Path file) throws IOException {
        List<Sample> out = new ArrayList<>();
        for (String l : Files.exists(file) ? Files.readAllLines(file) : List.<String>of()) {
            String[] f = l.split(" ");
            if (f.length == 6 && f[5].matches("-|([0-9a-f]{2}:){5}[0-9a-f]{2}")) {
                out.add(new Sample(Long.parseLong(f[0]), f[2], f[3].equals("ok"), f[4], f[5]));
            }
        }
        out.sort(java.util.Comparator.comparingLong(Sample::nanos));
        return new MigrationSamples(out);
    }

    List<Sample> of(String target) {
        return samples.stream().filter(s -> s.target().equals(target)).toList();
    }

    int size() {
        return samples.size();
    }

    /** The node that answered {@code target}'s latest sample sent after {@code after}, or "" (none, or failed). */
    String latest(String target, long after) {
        List<Sample> s = of(target);
        Sample last = s.isEmpty() ? null : s.get(s.size() - 1);
        return last != null && last.nanos() > after && last.ok() ? last.body() : "";
    }

    /** When the first sample of {@code target} sent at or after {@code from} was answered by {@code node}. */
    OptionalLong firstAnswer(String target, String node, long from) {
        return of(target).stream().filter(s -> s.nanos() >= from && s.ok() && s.body().equals(node))
                .mapToLong(Sample::nanos).findFirst();
    }

    /**
     * The longest outage of {@code target} between {@code from} and {@code to}, in ms: for each run of failed
     * samples, the time from the last answered sample before it to the first answered one after it (a run
     * still failing at {@code to} ends at {@code to}). This counts up to one sampling period (about 100 ms)
     * more than the service was really down. 0 when every sample in the window was answered.
     */
    long outageMs(String target, long from, long to) {
        long worst = 0;
        long lastOk = from;
        boolean failing = false;
        for (Sample s : of(target)) {
            if (s.nanos() < from || s.nanos() > to) {
                continue;
            }
            if (s.ok()) {
                if (failing) {
                    worst = Math.max(worst, s.nanos() - lastOk);
                }
                failing = false;
                lastOk = s.nanos();
            } else {
                failing = true;
            }
        }
        if (failing) {
            worst = Math.max(worst, to - lastOk);
        }
        return worst / 1_000_000;
    }

    /** Samples answered by one node while the client's neighbour entry named the other. */
    List<Sample> mixed() {
        return samples.stream().filter(Sample::mixed).toList();
    }

    /**
     * Interleaved answers: answered samples a, b, c of one service, in this order, with a and c answered by one
     * node and b by the other, and c sent less than {@code windowNanos} after a. Two hand-overs (there and
     * back) cannot both complete in less than one hand-over's time, so answers from both nodes that close
     * together mean both served the VIP. Checked on the runs of consecutive answers by the same node: the
     * closest a and c are the last sample of one run and the first of the run after next.
     *
     * @return one description per interleaving, empty when none
     */
    List<String> interleavings(String target, long windowNanos) {
        List<Sample[]> runs = new ArrayList<>(); // {first, last} of each run of answers by one node
        for (Sample s : of(target)) {
            if (!s.ok()) {
                continue;
            }
            Sample[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && last[1].body().equals(s.body())) {
                last[1] = s;
            } else {
                runs.add(new Sample[] {s, s});
            }
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i + 2 < runs.size(); i++) {
            Sample a = runs.get(i)[1];
            Sample c = runs.get(i + 2)[0];
            if (a.body().equals(c.body()) && c.nanos() - a.nanos() < windowNanos) {
                out.add(target + ": " + a.body() + " at " + a.nanos() + ", " + runs.get(i + 1)[0].body() + " from "
                        + runs.get(i + 1)[0].nanos() + " to " + runs.get(i + 1)[1].nanos() + ", " + c.body() + " again at "
                        + c.nanos() + " (" + (c.nanos() - a.nanos()) / 1_000_000 + " ms)");
            }
        }
        return out;
    }
}
