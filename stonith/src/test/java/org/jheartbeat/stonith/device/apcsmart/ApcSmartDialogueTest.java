package org.jheartbeat.stonith.device.apcsmart;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.stonith.device.apcsmart.ApcSmartDialogue.InitMode.CLUSTER_GLUE;
import static org.jheartbeat.stonith.device.apcsmart.ApcSmartDialogue.InitMode.MINIMAL;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.apcsmart.ApcSmartDialogue.Operation;
import org.junit.jupiter.api.Test;

/**
 * The client dialogue against scripted UPS replies, on the byte traces of facts stonith-sync §1.4 (recorded
 * from the real cluster-glue plugin against a UPS with {@code p}=180, {@code r}=180). Time is fake.
 */
class ApcSmartDialogueTest {
    private static final long MS = 1_000_000L;
    private static final long BOUND = 120_000 * MS;
    private static final String CTRL_N = "\u000e";

    /** One scripted exchange: the command we must send and the UPS's raw reply (null: silence). */
    record Step(String command, String reply) {}

    private static final class Script {
        final List<Step> steps = new ArrayList<>();

        Script x(String command, String reply) {
            steps.add(new Step(command, reply == null ? null : reply.equals("*") ? "*" : reply + "\r\n"));
            return this;
        }

        Script raw(String command, String rawReply) {
            steps.add(new Step(command, rawReply));
            return this;
        }

        Script y() {
            return x("Y", "SM");
        }

        /** Y var, then (- Y var) for each later value. */
        Script cycle(String var, String... values) {
            y().x(var, values[0]);
            for (int i = 1; i < values.length; i++) {
                x("-", "OK").y().x(var, values[i]);
            }
            return this;
        }

        /** APC_init with delay stepping (facts §1.4 steps 1–5). */
        Script init() {
            return y().cycle("p", "180", "020", "600", "300", "180").cycle("r", "180", "060", "000", "300", "180")
                    .cycle("p", "180", "020").cycle("r", "180", "060", "000");
        }

        /** APC_deinit: Y, then p and r stepped back to 180. */
        Script restore() {
            return y().cycle("p", "020", "600", "300", "180").cycle("r", "000", "300", "180");
        }

        String expectedBytes() {
            StringBuilder b = new StringBuilder();
            steps.forEach(s -> b.append(s.command()));
            return b.toString();
        }
    }

    record Outcome(StonithResult result, String sent, long elapsedMs, int unusedSteps) {}

    private static Outcome run(Operation op, ApcSmartDialogue.InitMode mode, long bound, Script script) {
        return run(op, mode, bound, ApcSmartDialogue.Confirm.PLUGIN, script);
    }

    private static Outcome run(Operation op, ApcSmartDialogue.InitMode mode, long bound,
                               ApcSmartDialogue.Confirm confirm, Script script) {
        ApcSmartDialogue d = new ApcSmartDialogue(op, mode, bound, confirm);
        long now = 1_000 * MS;
        long start = now;
        d.start(now);
        StringBuilder sent = new StringBuilder();
        StringBuilder pending = new StringBuilder();
        int next = 0;
        for (int i = 0; i < 100_000 && d.result().isEmpty(); i++) {
            byte[] out = d.bytesDue(now);
            if (out.length > 0) {
                String c = new String(out, US_ASCII);
                sent.append(c);
                pending.append(c);
                if (next < script.steps.size() && pending.toString().equals(script.steps.get(next).command())) {
                    String reply = script.steps.get(next++).reply();
                    pending.setLength(0);
                    if (reply != null) {
                        byte[] r = reply.getBytes(US_ASCII);
                        d.received(r, r.length, now + MS);
                    }
                }
                continue;
            }
            if (d.result().isEmpty()) {
                now = Math.max(now, d.nextDeadlineNanos());
            }
        }
        assertThat(d.result()).as("dialogue finished; sent %s", sent).isPresent();
        return new Outcome(d.result().orElseThrow(), sent.toString(), (now - start) / MS, script.steps.size() - next);
    }

    private static void assertTrace(Outcome o, Script s, StonithResult expected) {
        assertThat(o.sent()).isEqualTo(s.expectedBytes());
        assertThat(o.unusedSteps()).isZero();
        assertThat(o.result()).isEqualTo(expected);
    }

    @Test
    void statusTraceAsClusterGlue() {
        Script s = new Script().init().x("Q", "08").restore();
        assertTrace(run(Operation.STATUS, CLUSTER_GLUE, BOUND, s), s, StonithResult.OK);
    }

    @Test
    void statusMinimalSendsOnlyYAndQ() {
        Script s = new Script().y().x("Q", "08");
        Outcome o = run(Operation.STATUS, MINIMAL, BOUND, s);
        assertTrace(o, s, StonithResult.OK);
        assertThat(o.elapsedMs()).isLessThan(200);
    }

    @Test
    void resetTraceSThenAt000ThenSleepBit() {
        Script s = new Script().init().y().x("S", "NA").x("@000", "OK");
        for (int i = 0; i < 20; i++) {
            s.y().x("8", "00");
        }
        s.y().x("8", "08").restore();
        Outcome o = run(Operation.RESET, CLUSTER_GLUE, BOUND, s);
        assertTrace(o, s, StonithResult.OK);
        assertThat(o.elapsedMs()).isBetween(20_000L, 30_000L); // 20 polls 1 s apart plus 50 ms per byte
    }

    @Test
    void resetMinimalModeStillStepsDelays() {
        Script s = new Script().init().y().x("S", "NA").x("@000", "OK").y().x("8", "08").restore();
        assertTrace(run(Operation.RESET, MINIMAL, BOUND, s), s, StonithResult.OK);
    }

    @Test
    void resetAcceptsBareStarWithoutLineEnd() {
        Script s = new Script().init().y().x("S", "NA").raw("@000", "*").y().x("8", "08").restore();
        assertTrace(run(Operation.RESET, CLUSTER_GLUE, BOUND, s), s, StonithResult.OK);
    }

    @Test
    void resetAcceptedBySGoesStraightToPolling() {
        Script s = new Script().init().y().x("S", "OK").y().x("8", "08").restore();
        assertTrace(run(Operation.RESET, CLUSTER_GLUE, BOUND, s), s, StonithResult.OK);
    }

    @Test
    void resetWhileOutputOffPowersBackOn() {
        Script s = new Script().init().y().x("S", "NA").x("@000", "NA").y().x("~", "C0")
                .y().x(CTRL_N, null).x(CTRL_N, null).y().x("~", "80").restore();
        assertTrace(run(Operation.RESET, CLUSTER_GLUE, BOUND, s), s, StonithResult.OK);
    }

    @Test
    void resetRefusedWithOutputOnFails() {
        Script s = new Script().init().y().x("S", "NA").x("@000", "NA").y().x("~", "80").restore();
        assertTrace(run(Operation.RESET, CLUSTER_GLUE, BOUND, s), s, StonithResult.RESETFAIL);
    }

    @Test
    void resetGarbageAnswerToAt000Fails() {
        Script s = new Script().init().y().x("S", "NA").x("@000", "XY").restore();
        assertTrace(run(Operation.RESET, CLUSTER_GLUE, BOUND, s), s, StonithResult.RESETFAIL);
    }

    @Test
    void resetSleepBitNeverSeenFailsAfterGracePlusTenPolls() {
        Script s = new Script().init().y().x("S", "NA").x("@000", "OK");
        for (int i = 0; i < 30; i++) {
            s.y().x("8", i % 3 == 0 ? "zz" : "00"); // unparseable answers are ignored
        }
        s.restore();
        Outcome o = run(Operation.RESET, CLUSTER_GLUE, BOUND, s);
        assertTrace(o, s, StonithResult.RESETFAIL);
        assertThat(o.elapsedMs()).isBetween(30_000L, 40_000L);
    }

    @Test
    void resetBoundedByOperationTimeout() {
        Script s = new Script().init().y().x("S", "NA").x("@000", "OK");
        for (int i = 0; i < 30; i++) {
            s.y().x("8", "00");
        }
        Outcome o = run(Operation.RESET, CLUSTER_GLUE, 10_000 * MS, s);
        assertThat(o.result()).isEqualTo(StonithResult.TIMEOUT);
        assertThat(o.elapsedMs()).isEqualTo(10_000L);
    }

    @Test
    void offTrace() {
        Script s = new Script().init().y().x("Z", null).x("Z", null).y().x("~", "C0").restore();
        Outcome o = run(Operation.POWER_OFF, CLUSTER_GLUE, BOUND, s);
        assertTrace(o, s, StonithResult.OK);
    }

    @Test
    void onTraceMinimalWaitsTwoSecondsBetweenCommands() {
        Script s = new Script().y().y().x(CTRL_N, null).x(CTRL_N, null).y().x("~", "80");
        Outcome o = run(Operation.POWER_ON, MINIMAL, BOUND, s);
        assertTrace(o, s, StonithResult.OK);
        assertThat(o.elapsedMs()).isBetween(3_000L, 3_500L); // 2 s + 1 s sleeps plus 50 ms per byte
    }

    @Test
    void offPolledConfirmReadsRegisterOneAtOnceAfterTheSecondZ() {
        Script s = new Script().y().y().x("Z", null).x("Z", null).y().x("~", "C0");
        Outcome o = run(Operation.POWER_OFF, MINIMAL, BOUND, ApcSmartDialogue.Confirm.POLL, s);
        assertTrace(o, s, StonithResult.OK);
        // Y Y Z, 2 s, Z, Y ~: 2 s plus 50 ms per byte (the plugin's trace takes a second more)
        assertThat(o.elapsedMs()).isBetween(2_000L, 2_500L);
    }

    @Test
    void offPolledConfirmWaitsForASlowUpsAndToleratesAMissedReply() {
        Script s = new Script().y().y().x("Z", null).x("Z", null).y().x("~", "80").x("Y", null)
                .y().x("~", "80").y().x("~", "C0");
        Outcome o = run(Operation.POWER_OFF, MINIMAL, BOUND, ApcSmartDialogue.Confirm.POLL, s);
        assertTrace(o, s, StonithResult.OK);
    }

    @Test
    void offPolledConfirmGivesUpAfterItsWindow() {
        Script s = new Script().y().y().x("Z", null).x("Z", null);
        for (int i = 0; i < 100; i++) {
            s.y().x("~", "80");
        }
        Outcome o = run(Operation.POWER_OFF, MINIMAL, BOUND, ApcSmartDialogue.Confirm.POLL, s);
        assertThat(o.result()).isEqualTo(StonithResult.RESETFAIL);
        assertThat(o.sent()).startsWith("YYZZY~Y~");
        // second Z at ~2.1 s, then at most the 5 s window and one last read
        assertThat(o.elapsedMs()).isBetween(2_000L + ApcSmartDialogue.CONFIRM_WINDOW_MS,
                2_500L + ApcSmartDialogue.CONFIRM_WINDOW_MS);
    }

    @Test
    void onPolledConfirm() {
        Script s = new Script().y().y().x(CTRL_N, null).x(CTRL_N, null).y().x("~", "C0").y().x("~", "80");
        assertTrace(run(Operation.POWER_ON, MINIMAL, BOUND, ApcSmartDialogue.Confirm.POLL, s), s, StonithResult.OK);
    }

    @Test
    void offNotConfirmedFails() {
        Script s = new Script().y().y().x("Z", null).x("Z", null).y().x("~", "80");
        assertTrace(run(Operation.POWER_OFF, MINIMAL, BOUND, s), s, StonithResult.RESETFAIL);
    }

    @Test
    void offWithUnparseableRegisterFails() {
        Script s = new Script().y().y().x("Z", null).x("Z", null).y().x("~", "??");
        assertTrace(run(Operation.POWER_OFF, MINIMAL, BOUND, s), s, StonithResult.RESETFAIL);
    }

    @Test
    void offWhenSmartModeRefusedIsAccess() {
        Script s = new Script().y().x("Y", "NA");
        assertTrace(run(Operation.POWER_OFF, MINIMAL, BOUND, s), s, StonithResult.ACCESS);
    }

    @Test
    void silentUpsFailsInitWithOopsAfterThreeSeconds() {
        Script s = new Script().x("Y", null);
        Outcome o = run(Operation.STATUS, CLUSTER_GLUE, BOUND, s);
        assertTrace(o, s, StonithResult.OOPS);
        assertThat(o.elapsedMs()).isEqualTo(3_050L);
    }

    @Test
    void alertByteBeforeSmIsNotSmartMode() {
        Script s = new Script().x("Y", "!SM");
        assertTrace(run(Operation.STATUS, MINIMAL, BOUND, s), s, StonithResult.OOPS);
    }

    @Test
    void statusTimeoutAfterGoodInitIsPassedThrough() {
        Script s = new Script().y().x("Q", null);
        assertTrace(run(Operation.STATUS, MINIMAL, BOUND, s), s, StonithResult.TIMEOUT);
    }

    @Test
    void overlongReplyIsAccess() {
        Script s = new Script().y().raw("Q", "x".repeat(600));
        assertTrace(run(Operation.STATUS, MINIMAL, BOUND, s), s, StonithResult.ACCESS);
    }

    @Test
    void unreadableDelayFailsInitWithOops() {
        Script s = new Script().y().y().x("p", null);
        assertTrace(run(Operation.RESET, MINIMAL, BOUND, s), s, StonithResult.OOPS);
    }

    @Test
    void delayThatNeverCyclesBackIsOopsNotAnEndlessLoop() {
        Script s = new Script().y().y().x("p", "180");
        for (int i = 0; i < ApcSmartDialogue.MAX_CYCLE; i++) {
            s.x("-", "OK").y().x("p", String.format("%03d", 200 + i));
        }
        assertTrace(run(Operation.RESET, MINIMAL, BOUND, s), s, StonithResult.OOPS);
    }

    @Test
    void bytesAreSentFiftyMillisecondsApart() {
        ApcSmartDialogue d = new ApcSmartDialogue(Operation.STATUS, MINIMAL, BOUND);
        d.start(0);
        assertThat(new String(d.bytesDue(0), US_ASCII)).isEqualTo("Y");
        assertThat(d.bytesDue(10 * MS)).isEmpty();
        byte[] sm = "SM\r\n".getBytes(US_ASCII);
        d.received(sm, sm.length, 20 * MS);
        assertThat(d.bytesDue(49 * MS)).isEmpty();
        assertThat(d.nextDeadlineNanos()).isEqualTo(50 * MS);
        assertThat(new String(d.bytesDue(50 * MS), US_ASCII)).isEqualTo("Q");
    }

    @Test
    void staleInputBeforeACommandIsDiscarded() {
        ApcSmartDialogue d = new ApcSmartDialogue(Operation.STATUS, MINIMAL, BOUND);
        d.start(0);
        d.bytesDue(0);
        byte[] sm = "SM\r\nNA\r\n".getBytes(US_ASCII);
        d.received(sm, sm.length, MS);
        d.bytesDue(50 * MS);                          // Q sent: the extra NA was flushed
        byte[] q = "08\r\n".getBytes(US_ASCII);
        d.received(q, q.length, 60 * MS);
        d.bytesDue(100 * MS);
        assertThat(d.result()).contains(StonithResult.OK);
        assertThat(d.transcript()).containsExactly("< Y", "> SM", "< Q", "> 08");
    }
}
