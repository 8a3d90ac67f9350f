package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.director.runtime.DirectorKernelTest.R1;
import static org.jheartbeat.director.runtime.DirectorKernelTest.R2;
import static org.jheartbeat.director.runtime.DirectorKernelTest.SEED;
import static org.jheartbeat.director.runtime.DirectorKernelTest.VIP;
import static org.jheartbeat.director.runtime.DirectorKernelTest.config;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jheartbeat.director.alert.Alert;
import org.jheartbeat.director.alert.DaemonStatus;
import org.jheartbeat.director.runtime.DirectorAction.Mail;
import org.jheartbeat.director.table.TableSnapshot;
import org.junit.jupiter.api.Test;

/**
 * The kernel's alert decisions on a fake clock, against ldirectord 4.x's {@code ld_emailalert_send}
 * and {@code ld_emailalert_resend} (read for facts): which changes mail, the subject, the daemon
 * state filter, and the repeats while a real stays down.
 */
class EmailAlertKernelTest {
    static final long SECOND = 1_000_000_000L;
    final AtomicLong now = new AtomicLong(1_000 * SECOND);

    DirectorKernel kernel() {
        return new DirectorKernel(now::get);
    }

    static String alerting(String directives) {
        return SEED.replace("quiescent=no\n", "quiescent=no\n" + directives);
    }

    static List<Alert> mails(List<DirectorAction> actions) {
        return actions.stream().filter(a -> a instanceof Mail).map(a -> ((Mail) a).alert()).toList();
    }

    static List<String> subjects(List<DirectorAction> actions) {
        return mails(actions).stream().map(Alert::subject).toList();
    }

    @Test
    void aRealGoingDownAndComingBackSendsOneMailEachWithLdirectordsFacts() {
        DirectorKernel k = kernel();
        String cfg = alerting("emailalert = \"ops@example.org, oncall@example.org\"\nemailalertstatus = running\n"
                + "emailalertfrom = \"LVS\" <lvs@example.org>\n")
                .replace("\tservice=http\n", "\tservice=http\n\tservicename=web\n\tcomment=front end\n");
        assertThat(mails(k.start(config(cfg), TableSnapshot.empty()))).as("starting is not listed").isEmpty();
        List<DirectorAction> up = k.checked(VIP, R1, true, "");
        assertThat(mails(up)).hasSize(1);
        Alert m = mails(up).get(0);
        assertThat(m.to()).containsExactly("ops@example.org", "oncall@example.org");
        assertThat(m.from()).contains("\"LVS\" <lvs@example.org>");
        assertThat(m.smtp()).isEmpty();
        assertThat(m.subject()).isEqualTo("[web] Added real server: 198.18.0.21:80 (198.18.0.100:80) (Weight set to 1)");
        assertThat(m.logMessage()).isEqualTo("Added real server: 198.18.0.21:80 (198.18.0.100:80) (Weight set to 1)");
        assertThat(m.status()).isEqualTo(DaemonStatus.RUNNING);
        assertThat(m.details()).containsExactly("Service name: web", "Comment: front end");
        assertThat(DirectorKernelTest.logs(up))
                .contains("emailalert: Added real server: 198.18.0.21:80 (198.18.0.100:80) (Weight set to 1)");
        assertThat(mails(k.checked(VIP, R1, true, ""))).as("staying up").isEmpty();
        assertThat(subjects(k.checked(VIP, R1, false, "refused")))
                .containsExactly("[web] Deleted real server: 198.18.0.21:80 (198.18.0.100:80)");
        assertThat(mails(k.checked(VIP, R1, false, "refused"))).as("staying down").isEmpty();
        assertThat(subjects(k.checked(VIP, R1, true, "")))
                .containsExactly("[web] Added real server: 198.18.0.21:80 (198.18.0.100:80) (Weight set to 1)");
    }

    @Test
    void withTheDefaultAllTheStartSequenceMailsItsChangesAsStarting() {
        DirectorKernel k = kernel();
        List<DirectorAction> start = k.start(config(alerting("emailalert = ops@example.org\nsmtp = 127.0.0.1:2525\n")),
                TableSnapshot.empty());
        // ldirectord's start forces an absent real up, then down: both are mailed
        assertThat(subjects(start)).containsExactly(
                "Added real server: 198.18.0.21:80 (198.18.0.100:80) (Weight set to 1)",
                "Deleted real server: 198.18.0.21:80 (198.18.0.100:80)",
                "Added real server: 198.18.0.22:80 (198.18.0.100:80) (Weight set to 1)",
                "Deleted real server: 198.18.0.22:80 (198.18.0.100:80)");
        assertThat(mails(start)).allMatch(m -> m.status() == DaemonStatus.STARTING)
                .allMatch(m -> m.smtp().equals(Optional.of("127.0.0.1:2525")));
        assertThat(mails(k.checked(VIP, R1, true, ""))).singleElement()
                .extracting(Alert::status).isEqualTo(DaemonStatus.RUNNING);
    }

    @Test
    void emailalertfreqRepeatsWhileTheRealStaysDownAndStopsWhenItIsBack() {
        DirectorKernel k = kernel();
        k.start(config(alerting("emailalert = ops@example.org\nemailalertfreq = 60\nemailalertstatus = running\n")),
                TableSnapshot.empty());
        k.checked(VIP, R1, true, "");
        k.checked(VIP, R2, true, "");
        assertThat(k.alertsDue()).as("both up: nothing to repeat").isEmpty();
        assertThat(subjects(k.checked(VIP, R1, false, "refused")))
                .containsExactly("Deleted real server: 198.18.0.21:80 (198.18.0.100:80)");
        now.addAndGet(59 * SECOND);
        assertThat(k.alertsDue()).as("59 s after the alert").isEmpty();
        now.addAndGet(SECOND);
        List<DirectorAction> due = k.alertsDue();
        assertThat(subjects(due)).containsExactly("Inaccessible real server: 198.18.0.21:80 (198.18.0.100:80)");
        assertThat(mails(due).get(0).status()).isEqualTo(DaemonStatus.RUNNING);
        assertThat(DirectorKernelTest.commands(due)).isEmpty();
        now.addAndGet(40 * SECOND);
        assertThat(k.alertsDue()).as("40 s after the repeat").isEmpty();
        now.addAndGet(25 * SECOND);
        assertThat(mails(k.alertsDue())).hasSize(1);
        assertThat(mails(k.checked(VIP, R1, false, "refused"))).as("a further failure is not a change").isEmpty();
        assertThat(subjects(k.checked(VIP, R1, true, ""))).hasSize(1);
        now.addAndGet(600 * SECOND);
        assertThat(k.alertsDue()).as("back up: no more repeats").isEmpty();
    }

    @Test
    void aQuiescedRealIsRepeatedTooAndZeroMeansNoRepeat() {
        DirectorKernel k = kernel();
        k.start(config(alerting("emailalert = ops@example.org\nemailalertfreq = 30\nemailalertstatus = running\n")
                .replace("quiescent=no", "quiescent=yes")), TableSnapshot.empty());
        k.checked(VIP, R1, true, "");
        k.checked(VIP, R2, true, "");
        assertThat(subjects(k.checked(VIP, R1, false, "x")))
                .containsExactly("Quiescent real server: 198.18.0.21:80 (198.18.0.100:80) (Weight set to 0)");
        now.addAndGet(30 * SECOND);
        assertThat(subjects(k.alertsDue()))
                .containsExactly("Inaccessible real server: 198.18.0.21:80 (198.18.0.100:80)");

        DirectorKernel z = kernel();
        z.start(config(alerting("emailalert = ops@example.org\nemailalertstatus = running\n")), TableSnapshot.empty());
        z.checked(VIP, R1, true, "");
        assertThat(mails(z.checked(VIP, R1, false, "x"))).hasSize(1);
        now.addAndGet(100_000 * SECOND);
        assertThat(z.alertsDue()).as("emailalertfreq 0 (the default)").isEmpty();
    }

    @Test
    void emailalertstatusNamesTheStatesThatMail() {
        DirectorKernel none = kernel();
        none.start(config(alerting("emailalert = ops@example.org\nemailalertstatus = none\nemailalertfreq = 5\n")),
                TableSnapshot.empty());
        assertThat(mails(none.checked(VIP, R1, true, ""))).isEmpty();
        assertThat(mails(none.checked(VIP, R1, false, "x"))).isEmpty();
        now.addAndGet(10 * SECOND);
        assertThat(none.alertsDue()).isEmpty();
        assertThat(mails(none.stop())).isEmpty();

        DirectorKernel stopping = kernel();
        String cfg = alerting("emailalert = ops@example.org\nemailalertstatus = stopping, reloading\n");
        assertThat(mails(stopping.start(config(cfg), TableSnapshot.empty()))).isEmpty();
        assertThat(mails(stopping.checked(VIP, R1, true, ""))).isEmpty();
        assertThat(mails(stopping.checked(VIP, R2, true, ""))).isEmpty();
        List<DirectorAction> reload = stopping.reload(config(cfg.replace("\treal=198.18.0.22:80 gate\n", "")));
        assertThat(subjects(reload)).containsExactly("Purged real server: 198.18.0.22:80 (198.18.0.100:80)");
        assertThat(mails(reload).get(0).status()).isEqualTo(DaemonStatus.RELOADING);
        List<DirectorAction> stop = stopping.stop();
        assertThat(subjects(stop)).containsExactly("Deleted real server: 198.18.0.21:80 (198.18.0.100:80)");
        assertThat(mails(stop).get(0).status()).isEqualTo(DaemonStatus.STOPPING);
    }

    @Test
    void withoutEmailalertNothingIsMailedOrLoggedAsAnAlert() {
        DirectorKernel k = kernel();
        List<DirectorAction> all = new java.util.ArrayList<>(k.start(config(alerting("emailalertfreq = 5\n")),
                TableSnapshot.empty()));
        all.addAll(k.checked(VIP, R1, true, ""));
        all.addAll(k.checked(VIP, R1, false, "x"));
        now.addAndGet(60 * SECOND);
        all.addAll(k.alertsDue());
        all.addAll(k.stop());
        assertThat(mails(all)).isEmpty();
        assertThat(DirectorKernelTest.logs(all)).noneMatch(l -> l.startsWith("emailalert"));
        assertThat(DirectorKernelTest.logs(all)).contains("Deleted real server: 198.18.0.21:80 (198.18.0.100:80)");
    }

    @Test
    void theFallbackServerIsMailedWhenAddedAndDeletedButNotRepeated() {
        DirectorKernel k = kernel();
        k.start(config(alerting("emailalert = ops@example.org\nemailalertstatus = running\nemailalertfreq = 10\n")
                .replace("\tservice=http\n", "\tservice=http\n\tfallback=127.0.0.1:80 gate\n")),
                TableSnapshot.empty());
        assertThat(subjects(k.checked(VIP, R1, true, ""))).containsExactly(
                "Added real server: 198.18.0.21:80 (198.18.0.100:80) (Weight set to 1)",
                "Deleted fallback server: 127.0.0.1:80 (198.18.0.100:80)");
        assertThat(subjects(k.checked(VIP, R1, false, "x"))).containsExactly(
                "Deleted real server: 198.18.0.21:80 (198.18.0.100:80)",
                "Added fallback server: 127.0.0.1:80 (198.18.0.100:80) (Weight set to 1)");
        now.addAndGet(10 * SECOND);
        // R1 repeats; R2, down since the start, repeats too (ldirectord records the start's forced down)
        assertThat(subjects(k.alertsDue())).containsExactlyInAnyOrder(
                "Inaccessible real server: 198.18.0.21:80 (198.18.0.100:80)",
                "Inaccessible real server: 198.18.0.22:80 (198.18.0.100:80)");
    }
}
