package org.jheartbeat.director.userspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.director.config.Rejoin;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.table.TableCommand;
import org.junit.jupiter.api.Test;

/**
 * The seed's rejoin flood through the user-space proxy, with the product's decision model and real sockets on
 * loopback: wlc, A=1, B=1, C=2; A and B hold 10 open connections each while C is quiesced; C's weight comes back
 * and 40 more clients connect and stay. Without a rule C takes the first 20 (its count per weight catches up);
 * with {@code resetcounts} told to the backend (as the director does) they are shared 10/10/20 from the first.
 */
class UserspaceRejoinTest {

    @Test
    void theReturnerIsFloodedWithoutTheRuleAndTakesItsShareWithIt() throws Exception {
        String without = returnOf(Rejoin.OFF);
        String with = returnOf(new Rejoin(true, 0));
        System.out.println("through the proxy, the 40 connections after C's return:\n  without a rule: " + without
                + "\n  resetcounts:    " + with);
        assertThat(without.substring(0, 20)).isEqualTo("c".repeat(20));
        assertThat(count(with, 'c')).isBetween(18, 22);
        assertThat(count(with, 'a')).isBetween(8, 12);
        assertThat(count(with, 'b')).isBetween(8, 12);
        assertThat(with.substring(0, 8)).contains("a").contains("b").contains("c");
    }

    private static int count(String s, char c) {
        return (int) s.chars().filter(x -> x == c).count();
    }

    /** The reals' first letters of the 40 connections after C's return, in order. */
    private static String returnOf(Rejoin rules) throws Exception {
        UserspaceBackendTest t = new UserspaceBackendTest();
        List<Socket> clients = new ArrayList<>();
        try {
            UserspaceBackendTest.Real a = t.new Real("a", false);
            UserspaceBackendTest.Real b = t.new Real("b", false);
            UserspaceBackendTest.Real c = t.new Real("c", false);
            int vport = UserspaceBackendTest.freePort();
            UserspaceBackend be = new UserspaceBackend(new KernelModelSchedulingFactory(), UserspaceBackendTest.quick());
            t.closeMe.add(be);
            ServiceKey key = UserspaceBackendTest.tcp(vport);
            ServiceSpec spec = new ServiceSpec(key, "wlc", java.util.Optional.empty(), java.util.Optional.empty(), false,
                    java.util.Optional.empty());
            be.apply(List.of(new TableCommand.AddService(spec),
                    new TableCommand.SetReal(key, a.spec(), false, true),
                    new TableCommand.SetReal(key, b.spec(), false, true),
                    new TableCommand.SetReal(key, c.spec().withWeight(0), false, true)));
            be.rejoinRules(key, rules);
            StringBuilder before = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                before.append(connect(vport, clients));
            }
            assertThat(count(before.toString(), 'a')).isEqualTo(10);
            be.apply(List.of(new TableCommand.SetReal(key, c.spec().withWeight(2), true, true)));
            StringBuilder after = new StringBuilder();
            for (int i = 0; i < 40; i++) {
                after.append(connect(vport, clients));
            }
            return after.toString();
        } finally {
            for (Socket s : clients) {
                s.close();
            }
            t.closeAll();
        }
    }

    /** One client that stays connected (so the real's connection stays active); the real's first letter. */
    private static char connect(int vport, List<Socket> clients) throws Exception {
        Socket s = new Socket(UserspaceBackendTest.LO, vport);
        clients.add(s);
        s.setSoTimeout(10_000);
        s.getOutputStream().write("hi\n".getBytes(StandardCharsets.UTF_8));
        String answer = UserspaceBackendTest.readLine(s.getInputStream());
        assertThat(answer).endsWith(":hi");
        return answer.charAt(0);
    }
}
