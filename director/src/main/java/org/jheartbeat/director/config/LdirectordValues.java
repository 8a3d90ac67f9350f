package org.jheartbeat.director.config;

import static org.jheartbeat.director.config.LdirectordProblems.abbreviate;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The value checks of ldirectord.cf directives: yes/no, quoted strings, whole numbers and seconds in a
 * range, receive regular expressions, {@code emailalertstatus} lists and {@code smtp} servers. Each check
 * gives the value, or empty after reporting the problem at the directive's line.
 */
final class LdirectordValues {
    /** A whole number as ldirectord accepts it: digits only. */
    static final Pattern DIGITS = Pattern.compile("[0-9]+");

    private final LdirectordProblems problems;

    LdirectordValues(LdirectordProblems problems) {
        this.problems = problems;
    }

    /** Removes surrounding double quotes, if any. */
    static String unquote(String v) {
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    /** {@code none} only alone, as ldirectord 4.x's {@code parse_emailalertstatus}. */
    boolean validStatus(String v) {
        Set<String> words = Set.of("all", "none", "starting", "running", "stopping", "reloading");
        String s = v.replace(" ", "");
        List<String> list = List.of(s.split(","));
        return !s.isEmpty() && list.stream().allMatch(words::contains)
                && (!list.contains("none") || list.size() == 1);
    }

    /** {@code smtp = host[:port]} (or {@code [v6]:port}): the port must be a number in 1..65535. */
    boolean smtpServer(DirectiveLine r) {
        try {
            org.jheartbeat.director.alert.SmtpClient.parse(unquote(r.value()));
            return true;
        } catch (IllegalArgumentException e) {
            problems.error(r.line(), e.getMessage() + "; write smtp = HOST or HOST:PORT");
            return false;
        }
    }

    Optional<Boolean> yesNo(String key, DirectiveLine r) {
        String v = unquote(r.value()).toLowerCase(Locale.ROOT);
        if (v.equals("yes")) {
            return Optional.of(true);
        }
        if (v.equals("no")) {
            return Optional.of(false);
        }
        problems.error(r.line(), key + " must be yes or no, not '" + abbreviate(r.value()) + "'");
        return Optional.empty();
    }

    Optional<String> quoted(String key, DirectiveLine r, String example) {
        String v = r.value();
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            return Optional.of(v.substring(1, v.length() - 1));
        }
        problems.error(r.line(), key + " takes a quoted value, as ldirectord requires: " + example);
        return Optional.empty();
    }

    Optional<String> quotedOpt(String key, Map<String, DirectiveLine> d) {
        DirectiveLine r = d.get(key);
        return r == null ? Optional.empty() : quoted(key, r, key + " = \"" + ("request".equals(key) ? "/index.html"
                : "Welcome") + "\"");
    }

    boolean regex(String v, int line) {
        try {
            Pattern.compile(v);
            return true;
        } catch (java.util.regex.PatternSyntaxException e) {
            problems.error(line, "receive \"" + abbreviate(v) + "\" is not a valid regular expression ("
                    + e.getDescription() + "); fix or escape it");
            return false;
        }
    }

    Optional<Integer> integer(String key, DirectiveLine r, int min, int max) {
        String v = unquote(r.value());
        if (!DIGITS.matcher(v).matches() || v.length() > 10 || Long.parseLong(v) < min || Long.parseLong(v) > max) {
            problems.error(r.line(), key + " must be a whole number " + (max == Integer.MAX_VALUE ? "of at least " + min
                    : "from " + min + " to " + max) + ", not '" + abbreviate(r.value()) + "'");
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(v));
    }

    /** {@code slowstart}: whole seconds, 0 (off) to one hour. */
    Optional<Integer> slowStart(DirectiveLine r) {
        String v = unquote(r.value());
        if (!DIGITS.matcher(v).matches() || v.length() > 5 || Integer.parseInt(v) > Rejoin.MAX_SLOW_START_SECONDS) {
            problems.error(r.line(), "slowstart must be a whole number of seconds from 0 (off) to "
                    + Rejoin.MAX_SLOW_START_SECONDS + ", e.g. slowstart = 30; not '" + abbreviate(r.value()) + "'");
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(v));
    }

    Optional<Duration> seconds(String key, DirectiveLine r) {
        String v = unquote(r.value());
        if (!DIGITS.matcher(v).matches() || v.length() > 9 || Long.parseLong(v) < 1) {
            problems.error(r.line(), key + " must be a whole number of seconds greater than 0, not '"
                    + abbreviate(r.value()) + "'");
            return Optional.empty();
        }
        return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
    }
}
