package org.jheartbeat.director.alert;

/**
 * The director's own state, as ldirectord 4.x's daemon status: {@code emailalertstatus} names the
 * states in which alerts are sent, and each alert's body reports it ({@code Daemon-Status}). The
 * kernel ({@code org.jheartbeat.director.runtime.DirectorKernel}) keeps it; it lives here, with the
 * alert that carries it, so that this package does not depend on the kernel's.
 */
public enum DaemonStatus {
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
