package org.jheartbeat.director.check;

import java.time.Duration;

/**
 * Checks that contact nothing, as ldirectord 4.x: {@code checktype=on} and {@code service=none}
 * with negotiate ({@code check_none}) report every real server up; {@code checktype=off} reports
 * every real server down with the reason "checktype=off" (ldirectord adds neither the real
 * servers nor the fallback of such a virtual service: the director must not add the fallback
 * either).
 */
final class FixedCheck implements HealthCheck {
    static final FixedCheck ON = new FixedCheck(true, "");
    static final FixedCheck OFF = new FixedCheck(false, "checktype=off");

    private final boolean up;
    private final String reason;

    private FixedCheck(boolean up, String reason) {
        this.up = up;
        this.reason = reason;
    }

    @Override
    public CheckResult check(CheckTarget target, Duration timeout) {
        return up ? CheckResult.up(0) : CheckResult.down(reason, 0);
    }
}
