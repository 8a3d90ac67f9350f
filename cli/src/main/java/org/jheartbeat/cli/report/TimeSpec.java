package org.jheartbeat.cli.report;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time arguments of {@code hb report --from/--to} and {@code hb events --since}, read as {@code crm_report
 * -f/-t} users expect:
 * <ul>
 *   <li>ISO-8601 with an offset ({@code 2026-12-06T03:12:04Z}, {@code 2026-12-06T04:12+01:00});</li>
 *   <li>a local date and time, in {@code zone} ({@code 2026-12-06T03:12}, {@code 2026-12-06 03:12:04.5});</li>
 *   <li>a local date, its midnight ({@code 2026-12-06});</li>
 *   <li>a time ago: a sum of {@code N} units {@code w d h m|min s|sec ms} ({@code 2h}, {@code 1h30m},
 *       {@code 30min}, {@code 90s}, {@code 1w}); more than {@value #MAX_AGO_DAYS} days back is refused, however
 *       many digits;</li>
 *   <li>{@code @MS}: milliseconds since the epoch ({@code @1796526724518}), the form {@code hb events --json}
 *       prints in {@code ms}; 1 to 16 digits, a negative one is refused;</li>
 *   <li>{@code now}.</li>
 * </ul>
 */
public final class TimeSpec {
    /** The window when {@code --from} is not given: the last hour. */
    public static final Duration DEFAULT_SPAN = Duration.ofHours(1);
    /** The longest "ago" taken, in days (about 100 years: a journal holds days, not centuries). */
    public static final long MAX_AGO_DAYS = 36_525;
    /** The longest "ago" taken, in ms. */
    private static final long MAX_AGO_MS = MAX_AGO_DAYS * 86_400_000L;
    // any number of digits: a number too large is "too far back", not "not a date and time"
    private static final Pattern AGO = Pattern.compile("(?:\\d+(?:w|d|h|min|ms|m|sec|s))+");
    private static final Pattern AGO_TERM = Pattern.compile("(\\d+)(w|d|h|min|ms|m|sec|s)");
    private static final Pattern EPOCH_MS = Pattern.compile("@(\\d{1,16})");
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd[['T'][' ']HH:mm[:ss[.SSS][.SS][.S]]]",
            Locale.ROOT);

    /** A time window, {@code from} to {@code to} inclusive. */
    public record Window(Instant from, Instant to) {
        /** Whether {@code ms} (ms since the epoch) falls inside. */
        public boolean contains(long ms) {
            return ms >= from.toEpochMilli() && ms <= to.toEpochMilli();
        }
    }

    private TimeSpec() {
    }

    /**
     * The instant {@code text} names.
     *
     * @param now  the current time (the base of "ago")
     * @param zone the zone of local dates and times
     * @throws IllegalArgumentException with a message that shows the accepted forms
     */
    public static Instant parse(String text, Instant now, ZoneId zone) {
        String s = text == null ? "" : text.strip();
        if (s.isEmpty()) {
            throw bad(text, "it is empty");
        }
        if (s.equalsIgnoreCase("now")) {
            return now;
        }
        Matcher ms = EPOCH_MS.matcher(s);
        if (ms.matches()) {
            return Instant.ofEpochMilli(Long.parseLong(ms.group(1)));
        }
        if (s.startsWith("@")) {
            // @-1 would be a time before 1970, which no journal holds: a typo, said rather than read as "all"
            throw bad(text, "@ takes milliseconds since 1970-01-01T00:00:00Z: 1 to 16 digits, no sign");
        }
        String lower = s.toLowerCase(Locale.ROOT);
        if (AGO.matcher(lower).matches()) {
            long millis = 0;
            Matcher term = AGO_TERM.matcher(lower);
            while (term.find()) {
                long unit = switch (term.group(2)) {
                    case "w" -> 7 * 86_400_000L;
                    case "d" -> 86_400_000L;
                    case "h" -> 3_600_000L;
                    case "m", "min" -> 60_000L;
                    case "s", "sec" -> 1_000L;
                    default -> 1L;
                };
                String digits = term.group(1).replaceFirst("^0+(?=\\d)", "");
                // more than 18 digits cannot be parsed as a long and is centuries of ms anyway
                long n = digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits);
                if (n > (MAX_AGO_MS - millis) / unit) {
                    throw bad(text, "more than " + MAX_AGO_DAYS + " days back");
                }
                millis += n * unit;
            }
            return now.minusMillis(millis);
        }
        if (s.matches("\\d+")) {
            throw bad(text, "a number needs a unit (2h, 30m, 90s, 1d) or @ for milliseconds since the epoch");
        }
        try {
            return OffsetDateTime.parse(s.replace(' ', 'T')).toInstant();
        } catch (DateTimeException e) {
            // not with an offset: a local date and time
        }
        try {
            var parsed = LOCAL.parseBest(s, LocalDateTime::from, LocalDate::from);
            LocalDateTime local = parsed instanceof LocalDate d ? d.atStartOfDay() : (LocalDateTime) parsed;
            return local.atZone(zone).toInstant();
        } catch (DateTimeException e) {
            throw bad(text, "not a date and time");
        }
    }

    /**
     * The window of {@code --from FROM --to TO}: {@code to} defaults to {@code now}, {@code from} to an hour
     * before {@code to}.
     *
     * @param from the {@code --from} text, or null
     * @param to   the {@code --to} text, or null
     * @throws IllegalArgumentException when a time is not one or the window is empty ({@code from} after {@code to})
     */
    public static Window window(String from, String to, Instant now, ZoneId zone) {
        Instant end = to == null ? now : parse(to, now, zone);
        Instant start = from == null ? end.minus(DEFAULT_SPAN) : parse(from, now, zone);
        if (start.isAfter(end)) {
            throw new IllegalArgumentException("--from " + from + " (" + start + ") is after --to "
                    + (to == null ? "now" : to) + " (" + end + "); give a start before the end");
        }
        return new Window(start, end);
    }

    private static IllegalArgumentException bad(String text, String why) {
        return new IllegalArgumentException("'" + text + "' is not a time (" + why + "); use ISO-8601"
                + " (2026-12-06T03:12:00Z, or 2026-12-06 03:12 in local time), a time ago (2h, 30m, 1d2h, 1w) or"
                + " @MS (milliseconds since the epoch)");
    }
}
