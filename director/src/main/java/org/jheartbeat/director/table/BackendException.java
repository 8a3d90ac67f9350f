package org.jheartbeat.director.table;

import java.util.List;

/**
 * The table backend could not apply commands or read the table, after its retries. Carries the
 * commands that are still not in effect so the director can report them.
 */
public final class BackendException extends Exception {
    private final List<TableCommand> notApplied;

    public BackendException(String message, List<TableCommand> notApplied) {
        super(message);
        this.notApplied = List.copyOf(notApplied);
    }

    /** The commands whose effect the table does not show (empty for a failed read). */
    public List<TableCommand> notApplied() {
        return notApplied;
    }
}
