package org.jheartbeat.director.runtime;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.director.table.TableCommand;

/** What the {@link DirectorKernel} asks its shell to do. */
public sealed interface DirectorAction {

    /** Apply one change to the table (consecutive ones are batched by the shell). */
    record Apply(TableCommand command) implements DirectorAction {
        public Apply {
            Objects.requireNonNull(command, "command");
        }
    }

    /** Log one line, in ldirectord's words. */
    record Log(Level level, String message) implements DirectorAction {
        public Log {
            Objects.requireNonNull(level, "level");
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * Run a program without waiting for it ({@code fallbackcommand start|stop VIP:PORT PROTO},
     * {@code callback CONFIG}).
     */
    record Run(List<String> argv) implements DirectorAction {
        public Run {
            argv = List.copyOf(argv);
        }
    }

    /**
     * Send one e-mail alert ({@code emailalert}), as ldirectord 4.x's {@code ld_emailalert_send}:
     * the shell hands it to the mail executor and never waits for it.
     *
     * @param to         the {@code emailalert} addresses, in order (the directive split at commas)
     * @param from       {@code emailalertfrom} for the From header, if set
     * @param smtp       {@code smtp} ({@code host[:port]}), if set; otherwise the local sendmail is used
     * @param subject    the subject: the log line, with {@code [servicename] } in front if set
     * @param logMessage the log line that caused the alert (the body's {@code Log-Message})
     * @param status     the director's state when it was decided (the body's {@code Daemon-Status})
     * @param details    the extra body lines ({@code Service name: ...}, {@code Comment: ...}), may be empty
     */
    record Mail(List<String> to, Optional<String> from, Optional<String> smtp, String subject, String logMessage,
            DaemonStatus status, List<String> details) implements DirectorAction {
        public Mail {
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

    /**
     * The director's own state, as ldirectord 4.x's daemon status: {@code emailalertstatus} names
     * the states in which alerts are sent.
     */
    enum DaemonStatus {
        /** The start sequence ({@code ld_start}). */
        STARTING,
        /** Checks and their consequences, repeats of alerts. */
        RUNNING,
        /** The stop sequence ({@code cleanstop}). */
        STOPPING,
        /** A reload of the config. */
        RELOADING;

        /** The word ldirectord uses (the body's {@code Daemon-Status} and {@code emailalertstatus}). */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /**
         * Whether an {@code emailalertstatus} value lets this state send alerts: {@code all} is
         * every state, {@code none} no state, otherwise the comma list names the states.
         *
         * @param emailAlertStatus the directive's value as the parser kept it (spaces removed)
         */
        public boolean allowedBy(String emailAlertStatus) {
            for (String s : emailAlertStatus.split(",")) {
                String w = s.trim();
                if (w.equals("all") || w.equals(word())) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Log levels the kernel uses. */
    enum Level { INFO, WARN, ERROR }
}
