package org.jheartbeat.director.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The directive table of ldirectord.cf (ldirectord 4.x, Debian {@code ldirectord 1:4.12.0-2}; facts in
 * {@code shared/facts/lvs.md} §3): every directive {@link LdirectordParser} knows, where it may stand, how
 * its lines are kept and how a global value is checked at its own line. The parser dispatches on this
 * table; docs/reference.md ("ldirectord.cf directives") lists the same names, and a test holds the two
 * together.
 */
public final class LdirectordDirectives {
    private LdirectordDirectives() {
    }

    /** Where a directive may stand. */
    public enum Scope {
        /** Unindented only, before or between the blocks: a setting of the whole director. */
        GLOBAL,
        /** In a {@code virtual=} block, or unindented as the default of every block that does not set it. */
        BOTH,
        /** In a {@code virtual=} block only. */
        VIRTUAL
    }

    /** How the lines of a directive are kept while the file is read. */
    public enum Keep {
        /** One value; a second line warns and the last one counts, as in ldirectord. */
        LAST,
        /** Every line counts, in order ({@code execute}). */
        APPEND,
        /** Every line is one more real server of its block ({@code real}, {@code real6}). */
        REAL,
        /** The line opens a block ({@code virtual}, {@code virtual6}). */
        OPENS_BLOCK
    }

    /** How a global line's value is checked at its own line (a block's own value is checked where it is read). */
    public enum Check {
        /** Not checked as a global (a free string, or checked with the block that uses it). */
        NONE,
        /** {@code yes} or {@code no}. */
        YES_NO,
        /** A double-quoted string, as ldirectord requires. */
        QUOTED,
        /** A whole number of seconds, at least 1. */
        SECONDS,
        /** A whole number from 1 to 1,000,000. */
        COUNT,
        /** A whole number, at least 0. */
        FREQUENCY,
        /** A whole number of seconds from 0 to 3600 ({@code slowstart}). */
        SLOW_START,
        /** A comma list of all, none, starting, running, stopping, reloading ({@code none} alone). */
        ALERT_STATUS,
        /** {@code host[:port]} of an SMTP server. */
        SMTP,
        /** A connection-sync directive, checked by {@code SyncDirectives} (a jheartbeat extension). */
        SYNC
    }

    /**
     * One directive.
     *
     * @param name    as written, lower case
     * @param scope   where it may stand
     * @param keep    how its lines are kept
     * @param check   how a global line's value is checked
     * @param example a correct line, quoted in the message of a {@link Check#QUOTED} value; else empty
     */
    public record Directive(String name, Scope scope, Keep keep, Check check, String example) { }

    /** Directives ldirectord removed; each is an error saying what replaces it. */
    public static final Map<String, String> REMOVED = Map.of(
            "connecttimeout", "negotiatetimeout",
            "timeout", "negotiatetimeout");

    private static final Map<String, Directive> TABLE;

    static {
        Map<String, Directive> t = new LinkedHashMap<>();
        // the director
        global(t, "autoreload", Check.YES_NO);
        t.put("callback", new Directive("callback", Scope.GLOBAL, Keep.LAST, Check.QUOTED,
                "callback = \"/path/to/program\""));
        t.put("logfile", new Directive("logfile", Scope.GLOBAL, Keep.LAST, Check.QUOTED,
                "logfile = \"/var/log/ldirectord.log\" or logfile = \"local0\""));
        t.put("execute", new Directive("execute", Scope.GLOBAL, Keep.APPEND, Check.NONE, ""));
        global(t, "fork", Check.YES_NO);
        global(t, "supervised", Check.YES_NO);
        global(t, "readdquiescent", Check.YES_NO);
        global(t, "emailalertfrom", Check.NONE);
        global(t, "maintenancedir", Check.NONE);
        global(t, "syncdaemon", Check.SYNC);
        global(t, "syncid", Check.SYNC);
        global(t, "syncpeer", Check.SYNC);
        global(t, "syncauthkeys", Check.SYNC);
        t.put("virtual", new Directive("virtual", Scope.GLOBAL, Keep.OPENS_BLOCK, Check.NONE, ""));
        t.put("virtual6", new Directive("virtual6", Scope.GLOBAL, Keep.OPENS_BLOCK, Check.NONE, ""));
        // per virtual service, with a global default
        both(t, "checktimeout", Check.SECONDS);
        both(t, "negotiatetimeout", Check.SECONDS);
        both(t, "checkinterval", Check.SECONDS);
        both(t, "checkcount", Check.COUNT);
        both(t, "failurecount", Check.COUNT);
        both(t, "fallback", Check.NONE);
        both(t, "fallback6", Check.NONE);
        both(t, "fallbackcommand", Check.NONE);
        both(t, "checkcafile", Check.NONE);
        both(t, "resetcounts", Check.YES_NO);
        both(t, "slowstart", Check.SLOW_START);
        both(t, "quiescent", Check.YES_NO);
        both(t, "cleanstop", Check.YES_NO);
        both(t, "emailalert", Check.NONE);
        both(t, "emailalertfreq", Check.FREQUENCY);
        both(t, "emailalertstatus", Check.ALERT_STATUS);
        both(t, "smtp", Check.SMTP);
        // per virtual service only
        t.put("real", new Directive("real", Scope.VIRTUAL, Keep.REAL, Check.NONE, ""));
        t.put("real6", new Directive("real6", Scope.VIRTUAL, Keep.REAL, Check.NONE, ""));
        for (String v : new String[] {"scheduler", "schedflags", "persistent", "netmask", "protocol", "ops",
                "checktype", "service", "checkport", "request", "receive", "httpmethod", "virtualhost", "login",
                "passwd", "database", "secret", "checkcommand", "monitorfile", "servicename", "comment", "load"}) {
            t.put(v, new Directive(v, Scope.VIRTUAL, Keep.LAST, Check.NONE, ""));
        }
        TABLE = Collections.unmodifiableMap(t);
    }

    private static void global(Map<String, Directive> t, String name, Check check) {
        t.put(name, new Directive(name, Scope.GLOBAL, Keep.LAST, check, ""));
    }

    private static void both(Map<String, Directive> t, String name, Check check) {
        t.put(name, new Directive(name, Scope.BOTH, Keep.LAST, check, ""));
    }

    /** @return the directive of that (lower-case) name, or empty for an unknown or removed one */
    public static Optional<Directive> of(String name) {
        return Optional.ofNullable(TABLE.get(name));
    }

    /** @return every directive by name, in the order of the reference (director, with default, per virtual) */
    public static Map<String, Directive> all() {
        return TABLE;
    }
}
