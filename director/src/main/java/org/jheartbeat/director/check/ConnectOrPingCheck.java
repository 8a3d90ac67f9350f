package org.jheartbeat.director.check;

import java.time.Duration;

/**
 * {@code checktype=connect} as ldirectord 4.x dispatches it: a TCP connect ({@link ConnectCheck})
 * for tcp and fwm services, a ping ({@link PingCheck}) for udp services, where there is nothing
 * to connect to.
 */
final class ConnectOrPingCheck implements HealthCheck {
    private final HealthCheck connect;
    private final HealthCheck ping;

    ConnectOrPingCheck(HealthCheck connect, HealthCheck ping) {
        this.connect = connect;
        this.ping = ping;
    }

    @Override
    public CheckResult check(CheckTarget target, Duration timeout) throws InterruptedException {
        return "udp".equals(target.protocol()) ? ping.check(target, timeout) : connect.check(target, timeout);
    }
}
