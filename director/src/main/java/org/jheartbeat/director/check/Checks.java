package org.jheartbeat.director.check;

import java.util.Locale;

/**
 * Chooses the health check for a virtual service's {@code checktype} and {@code service}, as
 * ldirectord 4.x does. This is the one place the director asks for a check.
 */
public final class Checks {

    private Checks() {
    }

    /**
     * The check for one virtual service.
     *
     * @param checkType ldirectord's {@code checktype} (connect, negotiate, external, ping, off, on,
     *                  or a number: negotiate every N-th time, connect otherwise)
     * @param service   ldirectord's {@code service} (http, https, ftp, smtp, imap, dns, …, none)
     * @return the check
     * @throws IllegalArgumentException if the combination is not supported; the config reader
     *                                  reports it at file:line before this is called
     */
    public static HealthCheck forService(String checkType, String service) {
        String type = checkType.toLowerCase(Locale.ROOT);
        switch (type) {
            case "connect":
                return new ConnectCheck();
            default:
                throw new IllegalArgumentException("checktype " + checkType + " with service "
                        + service + " is not supported");
        }
    }
}
