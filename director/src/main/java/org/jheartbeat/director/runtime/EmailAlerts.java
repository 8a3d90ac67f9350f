package org.jheartbeat.director.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.alert.Alert;
import org.jheartbeat.director.alert.DaemonStatus;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.config.VirtualService;
import org.jheartbeat.director.runtime.DirectorAction.Level;

/**
 * The {@link DirectorKernel}'s alerts ({@code emailalert}, as ldirectord 4.x's {@code ld_emailalert_send}):
 * owns which reals are down with repeats due and when their last alert was decided.
 *
 * <p>Every change of a real or fallback server that ldirectord mails about (added, restored, quiescent,
 * deleted, purged; the fallback added or deleted) yields a {@link DirectorAction.Mail} whose subject is the
 * log line, when the service has {@code emailalert} and its {@code emailalertstatus} names the kernel's
 * {@link DaemonStatus} ({@code start}: starting, {@code reload}: reloading, {@code stop}: stopping, checks
 * and {@link DirectorKernel#alertsDue}: running). A real taken down (deleted or quiesced) with
 * {@code emailalertfreq} N &gt; 0 is remembered; while it stays down {@link #due} repeats "Inaccessible real
 * server: ..." once N seconds have passed since its last alert (ldirectord's {@code ld_emailalert_resend},
 * run after each pass, so the repeats are as accurate as {@code checkinterval}). Putting it back forgets it.
 * Time only from the injected {@link MonotonicClock}.
 */
final class EmailAlerts {

    /** A real server of a virtual service, for alert repeats. */
    private record AlertKey(ServiceKey service, Endpoint real) {
    }

    private final MonotonicClock clock;
    /** Reals down with repeats due: when their last alert was decided (clock ns). */
    private final Map<AlertKey, Long> lastAlert = new LinkedHashMap<>();

    /**
     * @param clock the time of alert repeats ({@code emailalertfreq})
     */
    EmailAlerts(MonotonicClock clock) {
        this.clock = clock;
    }

    /**
     * ldirectord's {@code ld_emailalert_send}: a real taken {@code down} is remembered for repeats
     * when {@code emailalertfreq} &gt; 0 (any other change forgets it), whatever the filter; then,
     * if the service has {@code emailalert} and {@code emailalertstatus} names the current state,
     * one log line {@code emailalert: SUBJECT} and one {@link DirectorAction.Mail}, added to {@code out}.
     */
    void send(VirtualService vs, Endpoint real, String message, boolean down, DaemonStatus status,
            LdirectordConfig config, List<DirectorAction> out) {
        AlertKey key = new AlertKey(vs.key(), real);
        if (down && vs.emailAlertFreq() > 0) {
            lastAlert.put(key, clock.nanoTime());
        } else {
            lastAlert.remove(key);
        }
        if (vs.emailAlert().isEmpty() || !status.allowedBy(vs.emailAlertStatus())) {
            return;
        }
        List<String> to = new ArrayList<>();
        for (String a : vs.emailAlert().get().split(",")) {
            if (!a.isBlank()) {
                to.add(a.trim());
            }
        }
        if (to.isEmpty()) {
            return;
        }
        String subject = vs.serviceName().map(n -> "[" + n + "] " + message).orElse(message);
        List<String> details = new ArrayList<>();
        vs.serviceName().ifPresent(n -> details.add("Service name: " + n));
        vs.comment().ifPresent(c -> details.add("Comment: " + c));
        out.add(new DirectorAction.Log(Level.INFO, "emailalert: " + message));
        out.add(new DirectorAction.Mail(new Alert(to, config.globals().emailAlertFrom(), vs.smtp(), subject, message,
                status, details)));
    }

    /**
     * The repeats that are due: for each real still down whose last alert is at least its service's
     * {@code emailalertfreq} seconds old, one "Inaccessible real server: RIP:PORT (VIP:PORT)" alert
     * ({@link #send}), added to {@code out}.
     *
     * @param stillDown the service of a real that is still configured and down, or null when it is gone
     *                  or back up
     */
    void due(BiFunction<ServiceKey, Endpoint, VirtualService> stillDown, DaemonStatus status,
            LdirectordConfig config, List<DirectorAction> out) {
        long now = clock.nanoTime();
        for (Map.Entry<AlertKey, Long> e : List.copyOf(lastAlert.entrySet())) {
            VirtualService vs = stillDown.apply(e.getKey().service(), e.getKey().real());
            if (vs == null || vs.emailAlertFreq() == 0) {
                lastAlert.remove(e.getKey()); // gone, back up, or repeats switched off by a reload
                continue;
            }
            if (now - e.getValue() >= vs.emailAlertFreq() * 1_000_000_000L) {
                Endpoint real = e.getKey().real();
                send(vs, real, "Inaccessible real server: " + real + " (" + vs.key().address() + ")", true, status,
                        config, out);
            }
        }
    }
}
