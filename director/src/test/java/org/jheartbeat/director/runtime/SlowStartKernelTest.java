package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.director.runtime.DirectorKernelTest.commands;
import static org.jheartbeat.director.runtime.DirectorKernelTest.config;
import static org.jheartbeat.director.runtime.DirectorKernelTest.ep;
import static org.jheartbeat.director.runtime.DirectorKernelTest.logs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.Rejoin;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.table.IpvsadmBackend;
import org.jheartbeat.director.table.RecordingIpvsadm;
import org.jheartbeat.director.table.TableCommand;
import org.jheartbeat.director.table.TableSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel backend's slow start ({@code slowstart}, {@code resetcounts}): the kernel's IPVS counters cannot be
 * reset from user space, so a rejoining real comes back at weight 1 and the director raises it with
 * {@code ipvsadm -e … -w N} after each pass of checks, on a fake clock; the recording ipvsadm shows the steps.
 */
class SlowStartKernelTest {
    static final long SECOND = 1_000_000_000L;
    static final ServiceKey VIP = ServiceKey.of(Protocol.TCP, ep("198.18.0.100", 80));
    static final Endpoint A = ep("198.18.0.21", 80);
    static final Endpoint B = ep("198.18.0.22", 80);
    static final Endpoint C = ep("198.18.0.23", 80);
    final AtomicLong now = new AtomicLong(1_000 * SECOND);

    static String cf(String scheduler, String extra) {
        return "checkinterval=10\nquiescent=yes\n" + "virtual=198.18.0.100:80\n\treal=198.18.0.21:80 gate 1\n"
                + "\treal=198.18.0.22:80 gate 1\n\treal=198.18.0.23:80 gate 4\n\tscheduler=" + scheduler + "\n"
                + "\tchecktype=connect\n" + extra;
    }

    /** Starts, lets every real pass, then takes C down; returns the kernel with C down. */
    DirectorKernel running(String text, boolean nativeRejoin, List<DirectorAction> all) {
        DirectorKernel k = new DirectorKernel(now::get, nativeRejoin);
        all.addAll(k.start(config(text), TableSnapshot.empty()));
        for (Endpoint r : List.of(A, B, C)) {
            all.addAll(k.checked(VIP, r, true, ""));
        }
        all.addAll(k.checked(VIP, C, false, "connection refused"));
        return k;
    }

    @Test
    void aRejoiningRealIsRaisedStepByStepAfterEachPass(@TempDir Path dir) throws Exception {
        List<DirectorAction> all = new ArrayList<>();
        DirectorKernel k = running(cf("wlc", "\tslowstart=30\n"), false, all);
        // the first pass after the start does not ramp: C went up at its weight
        assertThat(commands(all)).contains("ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 4",
                "ipvsadm -e -t 198.18.0.100:80 -r 198.18.0.23:80 -g -w 0");
        now.addAndGet(30 * SECOND);
        List<DirectorAction> back = k.checked(VIP, C, true, "");
        assertThat(commands(back)).containsExactly("ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 1");
        assertThat(logs(back)).contains("Restored real server: 198.18.0.23:80 (198.18.0.100:80) (Weight set to 1)",
                "Slow start of real server: 198.18.0.23:80 (198.18.0.100:80): weight 1 to 4 over 30 s");
        List<String> steps = new ArrayList<>();
        List<DirectorAction> rest = new ArrayList<>(back);
        for (int pass = 1; pass <= 5; pass++) { // a pass every 10 s
            now.addAndGet(10 * SECOND);
            List<DirectorAction> due = k.due();
            rest.addAll(due);
            steps.addAll(commands(due));
        }
        // ceil(4 × 10/30) = 2, ceil(4 × 20/30) = 3, then 4; nothing after the ramp
        assertThat(steps).containsExactly("ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 2",
                "ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 3",
                "ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 4");
        assertThat(logs(rest)).contains("Slow start of real server: 198.18.0.23:80 (198.18.0.100:80) (Weight set to 2 of 4)");

        // the same actions through the backend, on the recording ipvsadm
        RecordingIpvsadm rec = new RecordingIpvsadm(dir);
        IpvsadmBackend backend = rec.backend(1);
        for (List<DirectorAction> batch : List.of(all, rest)) {
            List<TableCommand> cmds = batch.stream().filter(a -> a instanceof DirectorAction.Apply)
                    .map(a -> ((DirectorAction.Apply) a).command()).toList();
            for (TableCommand c : cmds) {
                backend.apply(List.of(c));
            }
        }
        List<String> recorded = rec.commands().stream().filter(l -> l.contains("198.18.0.23")).toList();
        System.out.println("recorded for C:\n  " + String.join("\n  ", recorded));
        assertThat(String.join("\n", recorded)).containsSubsequence("-w 0", "-w 1", "-w 2", "-w 3", "-w 4");
        assertThat(rec.run("-L", "-n")).containsPattern("198\\.18\\.0\\.23:80\\s+Route\\s+4\\s");
    }

    @Test
    void aRealThatFailsAgainEndsItsRampAndAReloadWithoutSlowstartGivesFullWeight() {
        List<DirectorAction> all = new ArrayList<>();
        DirectorKernel k = running(cf("wrr", "\tslowstart=60\n"), false, all);
        now.addAndGet(5 * SECOND);
        assertThat(commands(k.checked(VIP, C, true, ""))).containsExactly(
                "ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 1");
        now.addAndGet(10 * SECOND);
        k.checked(VIP, C, false, "refused");
        now.addAndGet(60 * SECOND);
        assertThat(commands(k.due())).isEmpty();
        now.addAndGet(5 * SECOND);
        k.checked(VIP, C, true, "");
        now.addAndGet(16 * SECOND);
        assertThat(commands(k.due())).containsExactly("ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 2");
        // slowstart removed by a reload: C, unchanged and up, gets its weight at once and the ramp ends
        List<DirectorAction> reload = k.reload(config(cf("wrr", "")));
        assertThat(commands(reload)).containsExactly("ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 4");
        now.addAndGet(60 * SECOND);
        assertThat(commands(k.due())).isEmpty();
    }

    @Test
    void resetCountsOnTheKernelRampsLeastConnectionOnlyAndANativeBackendIsToldInstead() {
        // resetcounts without slowstart: the kernel's counters cannot be reset, so wlc ramps over 30 s
        List<DirectorAction> all = new ArrayList<>();
        DirectorKernel k = running(cf("wlc", "\tresetcounts=yes\n"), false, all);
        assertThat(commands(k.checked(VIP, C, true, ""))).containsExactly(
                "ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 1");
        // with wrr there are no counts to reset: C comes back at its weight
        DirectorKernel w = running(cf("wrr", "\tresetcounts=yes\n"), false, new ArrayList<>());
        assertThat(commands(w.checked(VIP, C, true, ""))).containsExactly(
                "ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 4");
        // a backend that applies the rules itself (user space) gets them after the start, and no weight steps
        List<DirectorAction> nat = new ArrayList<>();
        DirectorKernel n = running(cf("wlc", "\tresetcounts=yes\n\tslowstart=30\n"), true, nat);
        assertThat(nat).contains(new DirectorAction.Rejoin(VIP, new Rejoin(true, 30)));
        assertThat(commands(n.checked(VIP, C, true, ""))).containsExactly(
                "ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 4");
        now.addAndGet(40 * SECOND);
        assertThat(commands(n.due())).isEmpty();
        // without rules nothing is told
        assertThat(running(cf("wlc", ""), true, nat = new ArrayList<>())).isNotNull();
        assertThat(nat).noneMatch(a -> a instanceof DirectorAction.Rejoin);
    }
}
