package org.jheartbeat.sync.config;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;

/**
 * A job's {@code schedule:} parsed with cron-utils. Five fields are Unix cron ({@code minute hour
 * day-of-month month day-of-week}, cron-utils {@link CronType#UNIX}); six fields add a leading
 * seconds field, Spring style ({@link CronType#SPRING}), for sub-minute schedules in the lab
 * (e.g. {@code *}{@code /10 * * * * *} is every 10 seconds).
 *
 * @param expression the expression as written, blanks normalised
 * @param time       cron-utils' execution-time calculator
 */
public record CronSchedule(String expression, ExecutionTime time) {
    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final CronParser SPRING = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.SPRING));

    public CronSchedule {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(time, "time");
    }

    /**
     * Parses a 5- or 6-field cron expression.
     *
     * @param expression the expression, fields separated by blanks
     * @return the schedule
     * @throws IllegalArgumentException with cron-utils' explanation when the expression is not
     *                                  valid, or when it has neither 5 nor 6 fields
     */
    public static CronSchedule parse(String expression) {
        String norm = expression.trim().replaceAll("\\s+", " ");
        int fields = norm.isEmpty() ? 0 : norm.split(" ").length;
        CronParser parser = switch (fields) {
            case 5 -> UNIX;
            case 6 -> SPRING;
            default -> throw new IllegalArgumentException("has " + fields
                    + " fields, expected 5 (minute hour day month weekday) or 6 (with leading seconds)");
        };
        try {
            synchronized (parser) { // cron-utils does not document its parser as thread-safe
                return new CronSchedule(norm, ExecutionTime.forCron(parser.parse(norm)));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * The first fire time strictly after {@code after}.
     *
     * @param after a point in time (its zone decides how fields like hour are read)
     * @return the next fire time, empty if the expression never fires again
     */
    public Optional<ZonedDateTime> nextAfter(ZonedDateTime after) {
        return time.nextExecution(after);
    }
}
