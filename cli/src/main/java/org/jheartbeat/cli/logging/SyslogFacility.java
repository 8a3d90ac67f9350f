package org.jheartbeat.cli.logging;

import java.util.Locale;
import java.util.Optional;

/**
 * The syslog facilities ha.cf's {@code logfacility} may name, with their codes: the names of glibc's
 * {@code facilitynames} table (which Heartbeat 3.0.6 {@code cl_syslogfac_str2int} looks names up in,
 * case-sensitively) and the codes of RFC 3164 section 4.1.1 / glibc {@code <syslog.h>}
 * ({@code security} is glibc's old alias of {@code auth}). A record's PRI is
 * {@code code * 8 + severity}.
 */
public enum SyslogFacility {
    KERN(0), USER(1), MAIL(2), DAEMON(3), AUTH(4), SYSLOG(5), LPR(6), NEWS(7), UUCP(8), CRON(9), AUTHPRIV(10),
    FTP(11), LOCAL0(16), LOCAL1(17), LOCAL2(18), LOCAL3(19), LOCAL4(20), LOCAL5(21), LOCAL6(22), LOCAL7(23);

    private final int code;

    SyslogFacility(int code) {
        this.code = code;
    }

    /** The facility code, 0..23 (RFC 3164 section 4.1.1). */
    public int code() {
        return code;
    }

    /** The name as ha.cf writes it, e.g. {@code local0}. */
    public String haCfName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The facility ha.cf's {@code logfacility NAME} names.
     *
     * @param name the ha.cf value, lower case as Heartbeat requires ({@code security} is {@code auth})
     * @return the facility, or empty for {@code none} and for names that are not facilities (the ha.cf
     *         parser refuses those before the daemon starts)
     */
    public static Optional<SyslogFacility> fromHaCf(String name) {
        if ("security".equals(name)) {
            return Optional.of(AUTH);
        }
        for (SyslogFacility f : values()) {
            if (f.haCfName().equals(name)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
