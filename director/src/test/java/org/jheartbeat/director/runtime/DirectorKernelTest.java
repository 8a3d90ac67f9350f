package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.LdirectordParser;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.table.IpvsTable;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.table.TableCommand;
import org.jheartbeat.director.table.TableSnapshot;
import org.junit.jupiter.api.Test;

/**
 * The decision kernel against ldirectord 4.x's command sequences (facts {@code lvs.md} §3.6): the
 * expected ipvsadm lines are written out from the facts, not computed.
 */
class DirectorKernelTest {
    static final String SEED = "checktimeout=20\ncheckinterval=10\nautoreload=yes\nquiescent=no\n"
            + "virtual=198.18.0.100:80\n\treal=198.18.0.21:80 gate\n\treal=198.18.0.22:80 gate\n\tservice=http\n"
            + "\tscheduler=lc\n\tpersistent=90\n\tprotocol=tcp\n\tchecktype=connect\n";
    static final ServiceKey VIP = ServiceKey.of(Protocol.TCP, ep("198.18.0.100", 80));
    static final Endpoint R1 = ep("198.18.0.21", 80);
    static final Endpoint R2 = ep("198.18.0.22", 80);

    static Endpoint ep(String host, int port) {
        try {
            return new Endpoint(InetAddress.getByName(host), port);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    static LdirectordConfig config(String text) {
        LdirectordParser.Result r = new LdirectordParser(n -> Optional.empty()).parse(Path.of("ldirectord.cf"), text);
        assertThat(r.hasErrors()).as(r.diagnostics().toString()).isFalse();
        return r.config().orElseThrow();
    }

    static List<String> commands(List<DirectorAction> actions) {
        return actions.stream().filter(a -> a instanceof DirectorAction.Apply)
                .map(a -> ((DirectorAction.Apply) a).command().commandLine()).toList();
    }

    static List<String> logs(List<DirectorAction> actions) {
        return actions.stream().filter(a -> a instanceof DirectorAction.Log)
                .map(a -> ((DirectorAction.Log) a).message()).toList();
    }

    static List<List<String>> runs(List<DirectorAction> actions) {
        return actions.stream().filter(a -> a instanceof DirectorAction.Run)
                .map(a -> ((DirectorAction.Run) a).argv()).toList();
    }

    @Test
    void theSeedStartsAsLdirectordDoesAndFollowsItsChecks() {
        DirectorKernel k = new DirectorKernel();
        List<DirectorAction> start = k.start(config(SEED), TableSnapshot.empty());
        // readdquiescent=no: each real is first forced up with its weight, then forced down (deleted)
        assertThat(commands(start)).containsExactly(
                "ipvsadm -A -t 198.18.0.100:80 -s lc -p 90",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.21:80",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.22:80 -g -w 1",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.22:80");
        assertThat(logs(start)).contains("Added virtual server: tcp 198.18.0.100:80",
                "Added real server: 198.18.0.21:80 (198.18.0.100:80) (Weight set to 1)",
                "Deleted real server: 198.18.0.21:80 (198.18.0.100:80)");
        assertThat(commands(k.checked(VIP, R1, true, ""))).containsExactly(
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1");
        assertThat(commands(k.checked(VIP, R2, true, ""))).containsExactly(
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.22:80 -g -w 1");
        assertThat(k.checked(VIP, R1, true, "")).isEmpty(); // up and staying up: nothing
        List<DirectorAction> down = k.checked(VIP, R2, false, "Connection refused");
        assertThat(commands(down)).containsExactly("ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.22:80");
        assertThat(logs(down)).containsExactly(
                "Check of real server 198.18.0.22:80 (198.18.0.100:80) failed: Connection refused",
                "Deleted real server: 198.18.0.22:80 (198.18.0.100:80)");
        assertThat(k.checked(VIP, R2, false, "Connection refused")).isEmpty(); // down stays down quietly
        assertThat(commands(k.checked(VIP, R2, true, ""))).containsExactly(
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.22:80 -g -w 1");
        IpvsTable t = IpvsTable.of(k.expectedTable());
        assertThat(t.reals(VIP)).extracting(RealSpec::weight).containsExactly(1, 1);
    }

    @Test
    void failurecountConsecutiveFailuresTakeARealDownAndOneSuccessResetsTheCount() {
        DirectorKernel k = new DirectorKernel();
        k.start(config(SEED.replace("quiescent=no", "quiescent=no\nfailurecount=3")), TableSnapshot.empty());
        k.checked(VIP, R1, true, "");
        assertThat(logs(k.checked(VIP, R1, false, "timeout"))).containsExactly(
                "Soft failure of real server 198.18.0.21:80 (198.18.0.100:80) (1 of 3): timeout");
        assertThat(commands(k.checked(VIP, R1, false, "timeout"))).isEmpty();
        assertThat(logs(k.checked(VIP, R1, true, ""))).containsExactly(
                "Resetting soft failure count: 198.18.0.21:80 (198.18.0.100:80)");
        assertThat(commands(k.checked(VIP, R1, false, "x"))).isEmpty();
        assertThat(commands(k.checked(VIP, R1, false, "x"))).isEmpty();
        assertThat(commands(k.checked(VIP, R1, false, "x"))).containsExactly(
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.21:80");
    }

    @Test
    void quiescentSetsWeightZeroInsteadOfDeleting() {
        DirectorKernel k = new DirectorKernel();
        List<DirectorAction> start = k.start(config(SEED.replace("quiescent=no", "quiescent=yes")),
                TableSnapshot.empty());
        assertThat(commands(start)).containsExactly(
                "ipvsadm -A -t 198.18.0.100:80 -s lc -p 90",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1",
                "ipvsadm -e -t 198.18.0.100:80 -r 198.18.0.21:80 -g -w 0",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.22:80 -g -w 1",
                "ipvsadm -e -t 198.18.0.100:80 -r 198.18.0.22:80 -g -w 0");
        assertThat(logs(start)).contains("Quiescent real server: 198.18.0.21:80 (198.18.0.100:80) (Weight set to 0)");
        List<DirectorAction> up = k.checked(VIP, R1, true, "");
        assertThat(commands(up)).containsExactly("ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1");
        assertThat(logs(up)).containsExactly("Restored real server: 198.18.0.21:80 (198.18.0.100:80) (Weight set to 1)");
        assertThat(commands(k.checked(VIP, R1, false, "x"))).containsExactly(
                "ipvsadm -e -t 198.18.0.100:80 -r 198.18.0.21:80 -g -w 0");
    }

    @Test
    void readdquiescentOnlyForcesDownAtStartAddingMissingRealsAtWeightZero() {
        DirectorKernel k = new DirectorKernel();
        List<DirectorAction> start = k.start(config(SEED.replace("quiescent=no",
                "quiescent=yes\nreaddquiescent=yes")), TableSnapshot.empty());
        assertThat(commands(start)).containsExactly(
                "ipvsadm -A -t 198.18.0.100:80 -s lc -p 90",
                "ipvsadm -a -t 198.18.0.100:80 -r 198.18.0.21:80 -g -w 0",
                "ipvsadm -a -t 198.18.0.100:80 -r 198.18.0.22:80 -g -w 0");
    }

    @Test
    void fallbackAndFallbackcommandFollowTheLastAndFirstRealUp() {
        DirectorKernel k = new DirectorKernel();
        List<DirectorAction> start = k.start(config(SEED.replace("quiescent=no",
                "quiescent=no\nfallback=198.18.0.99:80\nfallbackcommand=/usr/local/bin/sorry")), TableSnapshot.empty());
        // ldirectord's start: fallback on; each real forced up (fallback off) then down (fallback on)
        assertThat(commands(start)).containsExactly(
                "ipvsadm -A -t 198.18.0.100:80 -s lc -p 90",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.99:80 -g -w 1",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.99:80",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.21:80",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.99:80 -g -w 1",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.22:80 -g -w 1",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.99:80",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.22:80",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.99:80 -g -w 1");
        assertThat(runs(start)).first().isEqualTo(List.of("/usr/local/bin/sorry", "start", "198.18.0.100:80", "tcp"));
        List<DirectorAction> up = k.checked(VIP, R1, true, "");
        assertThat(commands(up)).containsExactly(
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.99:80");
        assertThat(runs(up)).containsExactly(List.of("/usr/local/bin/sorry", "stop", "198.18.0.100:80", "tcp"));
        assertThat(runs(k.checked(VIP, R2, true, ""))).isEmpty();
        assertThat(commands(k.checked(VIP, R1, false, "x"))).containsExactly(
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.21:80");
        List<DirectorAction> last = k.checked(VIP, R2, false, "x");
        assertThat(commands(last)).containsExactly(
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.22:80",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.99:80 -g -w 1");
        assertThat(logs(last)).contains("Added fallback server: 198.18.0.99:80 (198.18.0.100:80) (Weight set to 1)");
        assertThat(runs(last)).containsExactly(List.of("/usr/local/bin/sorry", "start", "198.18.0.100:80", "tcp"));
    }

    private static TableSnapshot tableWith(ServiceSpec spec, RealSpec... reals) {
        IpvsTable t = new IpvsTable();
        t.apply(new TableCommand.AddService(spec));
        for (RealSpec r : reals) {
            t.apply(new TableCommand.SetReal(spec.key(), r, false, true));
        }
        return t.snapshot();
    }

    @Test
    void aRestartOverAnUnchangedTableChangesNothingAndPurgesUnknownReals() {
        ServiceSpec spec = new ServiceSpec(VIP, "lc", Optional.of(90), Optional.empty(), false, Optional.empty());
        DirectorKernel k = new DirectorKernel();
        assertThat(k.start(config(SEED), tableWith(spec, new RealSpec(R1, Forward.GATE, 1, 0, 0),
                new RealSpec(R2, Forward.GATE, 1, 0, 0)))).isEmpty();
        DirectorKernel k2 = new DirectorKernel();
        List<DirectorAction> a = k2.start(config(SEED), tableWith(spec, new RealSpec(R1, Forward.GATE, 3, 0, 0),
                new RealSpec(R2, Forward.GATE, 1, 0, 0), new RealSpec(ep("198.18.0.23", 80), Forward.GATE, 1, 0, 0)));
        assertThat(commands(a)).containsExactly(
                "ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.23:80");
        assertThat(logs(a)).contains("Purged real server: 198.18.0.23:80 (198.18.0.100:80)");
    }

    @Test
    void reloadTouchesOnlyWhatChangedAndNeverAServiceItDoesNotOwn() {
        ServiceSpec foreign = new ServiceSpec(ServiceKey.of(Protocol.TCP, ep("198.18.0.200", 443)), "rr",
                Optional.empty(), Optional.empty(), false, Optional.empty());
        DirectorKernel k = new DirectorKernel();
        String two = SEED + "virtual=198.18.0.101:25\n\treal=198.18.0.31:25 masq\n\tchecktype=connect\n";
        k.start(config(two), tableWith(foreign));
        k.checked(VIP, R1, true, "");
        k.checked(VIP, R2, true, "");
        // R2 goes, R3 comes, the :25 service goes, a :110 service comes, the scheduler of :80 changes
        String next = SEED.replace("\treal=198.18.0.22:80 gate\n", "\treal=198.18.0.23:80 gate\n")
                .replace("scheduler=lc", "scheduler=wlc")
                + "virtual=198.18.0.102:110\n\treal=198.18.0.41:110 gate\n\tchecktype=connect\n";
        List<DirectorAction> a = k.reload(config(next));
        assertThat(commands(a)).containsExactly(
                "ipvsadm -E -t 198.18.0.100:80 -s wlc -p 90",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.22:80",
                "ipvsadm -A -t 198.18.0.102:110 -s wrr",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w 1",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.23:80",
                "ipvsadm -a -t 198.18.0.102:110 -x 0 -y 0 -r 198.18.0.41:110 -g -w 1",
                "ipvsadm -d -t 198.18.0.102:110 -r 198.18.0.41:110",
                "ipvsadm -D -t 198.18.0.101:25");
        // R1 kept its state: up, and no command was issued for it
        assertThat(k.upStates().get(VIP).get(R1)).isTrue();
        assertThat(commands(a)).noneMatch(c -> c.contains("198.18.0.21") || c.contains("198.18.0.200"));
        assertThat(k.reload(config(next))).isEmpty(); // the same file again: nothing
        assertThat(k.expectedTable().service(foreign.key())).isPresent();
    }

    @Test
    void aReloadDoesNotRerunFallbackcommandWhileAllRealsStayDown() {
        DirectorKernel k = new DirectorKernel();
        String cfg = SEED.replace("quiescent=no", "quiescent=no\nfallbackcommand=/usr/local/bin/sorry");
        k.start(config(cfg), TableSnapshot.empty());
        assertThat(runs(k.reload(config(cfg + "virtual=198.18.0.101:25\n\treal=198.18.0.31:25 gate\n"))))
                .noneMatch(r -> r.contains("198.18.0.100:80"));
    }

    @Test
    void stopDeletesWhatItBroughtUpUnlessCleanstopIsNo() {
        DirectorKernel k = new DirectorKernel();
        k.start(config(SEED), TableSnapshot.empty());
        k.checked(VIP, R1, true, "");
        assertThat(commands(k.stop())).containsExactly(
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.21:80",
                "ipvsadm -D -t 198.18.0.100:80");
        DirectorKernel keep = new DirectorKernel();
        keep.start(config(SEED.replace("quiescent=no", "cleanstop=no")), TableSnapshot.empty());
        keep.checked(VIP, R1, true, "");
        assertThat(keep.stop()).isEmpty();
    }

    @Test
    void checktypeOffAddsNoRealsAndOnAddsThemAll() {
        DirectorKernel off = new DirectorKernel();
        assertThat(commands(off.start(config(SEED.replace("checktype=connect", "checktype=off")),
                TableSnapshot.empty()))).containsExactly("ipvsadm -A -t 198.18.0.100:80 -s lc -p 90");
        DirectorKernel on = new DirectorKernel();
        assertThat(commands(on.start(config(SEED.replace("checktype=connect", "checktype=on")),
                TableSnapshot.empty()))).containsExactly(
                "ipvsadm -A -t 198.18.0.100:80 -s lc -p 90",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.22:80 -g -w 1");
    }
}
