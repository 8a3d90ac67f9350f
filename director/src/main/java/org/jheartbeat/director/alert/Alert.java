package org.jheartbeat.director.alert;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One e-mail alert to send ({@code emailalert}), as ldirectord 4.x's {@code ld_emailalert_send}
 * composes it. The director's kernel decides it and hands it over wrapped in its
 * {@code DirectorAction.Mail}; this package only formats and sends it, so it never looks up at the
 * kernel.
 *
 * @param to         the {@code emailalert} addresses, in order (the directive split at commas)
 * @param from       {@code emailalertfrom} for the From header, if set
 * @param smtp       {@code smtp} ({@code host[:port]}), if set; otherwise the local sendmail is used
 * @param subject    the subject: the log line, with {@code [servicename] } in front if set
 * @param logMessage the log line that caused the alert (the body's {@code Log-Message})
 * @param status     the director's state when it was decided (the body's {@code Daemon-Status})
 * @param details    the extra body lines ({@code Service name: ...}, {@code Comment: ...}), may be empty
 * @throws IllegalArgumentException when {@code to} is empty
 */
public record Alert(List<String> to, Optional<String> from, Optional<String> smtp, String subject, String logMessage,
        DaemonStatus status, List<String> details) {
    public Alert {
        to = List.copyOf(to);
        if (to.isEmpty()) {
            throw new IllegalArgumentException("an alert needs at least one address");
        }
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(smtp, "smtp");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(logMessage, "logMessage");
        Objects.requireNonNull(status, "status");
        details = List.copyOf(details);
    }
}
