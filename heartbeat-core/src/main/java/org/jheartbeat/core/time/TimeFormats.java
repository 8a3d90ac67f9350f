package org.jheartbeat.core.time;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** How {@code hb} prints times; in core, so that the commands and the sync module print alike. */
public final class TimeFormats {
    /**
     * Local time to the second ({@code yyyy-MM-dd HH:mm:ss}, the system zone): how the command
     * lines print job and backup times, next to {@code hb status}'s event times.
     */
    public static final DateTimeFormatter LOCAL_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private TimeFormats() {
    }
}
