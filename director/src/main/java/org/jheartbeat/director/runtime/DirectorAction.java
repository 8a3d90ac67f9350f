package org.jheartbeat.director.runtime;

import java.util.List;
import java.util.Objects;
import org.jheartbeat.director.alert.Alert;
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
     * @param alert what to send (addresses, subject, body facts)
     */
    record Mail(Alert alert) implements DirectorAction {
        public Mail {
            Objects.requireNonNull(alert, "alert");
        }
    }

    /**
     * Tell the backend a service's rejoin rules ({@code resetcounts}, {@code slowstart}), after each start or
     * reload for the services that have or had them; a backend that does not apply them itself ignores it (the
     * kernel then ramps weights through {@link Apply}).
     */
    record Rejoin(org.jheartbeat.director.config.ServiceKey service, org.jheartbeat.director.config.Rejoin policy)
            implements DirectorAction {
        public Rejoin {
            Objects.requireNonNull(service, "service");
            Objects.requireNonNull(policy, "policy");
        }
    }

    /**
     * A real (or fallback) server left or rejoined a virtual service: for the event journal ({@code real-down},
     * {@code real-up}); the shell passes it to its listener only.
     *
     * @param service the virtual service, as {@code VIP:PORT} (or {@code fwmark N})
     * @param real    the real server, {@code RIP:PORT}
     * @param down    taken out (deleted, quiesced, purged) rather than put back
     * @param message the log line, in ldirectord's words
     */
    record RealChanged(String service, String real, boolean down, String message) implements DirectorAction {
        public RealChanged {
            Objects.requireNonNull(service, "service");
            Objects.requireNonNull(real, "real");
            Objects.requireNonNull(message, "message");
        }
    }

    /** Log levels the kernel uses. */
    enum Level { INFO, WARN, ERROR }
}
