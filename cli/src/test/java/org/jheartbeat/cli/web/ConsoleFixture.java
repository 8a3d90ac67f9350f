package org.jheartbeat.cli.web;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.control.ControlResponse;

/**
 * A console on loopback serving {@link PagesTest}'s fixed status and journal with a director table, for pictures of
 * the views a lab does not run (the director); user {@code root}, password {@link #PASSWORD}. Test code only.
 */
public final class ConsoleFixture {
    /** root's password on the fixture. */
    public static final String PASSWORD = "root-password";

    private ConsoleFixture() {
    }

    /** Starts it; close the server when done. */
    public static WebServer start(Path dir) throws Exception {
        Path users = dir.resolve("fixture-users");
        WebUsers.put(users, "root", PASSWORD.toCharArray(), new SecureRandom());
        Map<String, Object> table = Sources.json("""
                {"services":[{"protocol":"tcp","address":"198.18.0.200","port":80,"scheduler":"wrr",
                  "reals":[{"address":"198.18.2.1","port":80,"forward":"gate","weight":5,"activeConns":12,"inactConns":40},
                           {"address":"198.18.2.2","port":80,"forward":"gate","weight":5,"activeConns":11,"inactConns":38},
                           {"address":"198.18.2.3","port":80,"forward":"gate","weight":0,"activeConns":0,"inactConns":2}]},
                 {"protocol":"tcp","address":"198.18.0.200","port":443,"scheduler":"wlc","persistent":300,
                  "reals":[{"address":"198.18.2.1","port":443,"forward":"gate","weight":1,"activeConns":4,"inactConns":9},
                           {"address":"198.18.2.2","port":443,"forward":"gate","weight":1,"activeConns":3,"inactConns":7}]}]}
                """);
        Snapshot s = PagesTest.snapshot();
        Snapshot withDirector = new Snapshot(s.local(), s.status(), "", s.events(), "", s.peer(), "", s.nowMillis(),
                Optional.of(table), "", s.nowMillis());
        Console console = new Console(new Console.Settings(users, Optional.empty(), dir.resolve("passwd"),
                dir.resolve("group"), ZoneOffset.UTC), new Sessions(Clock.systemUTC(), new SecureRandom()),
                () -> withDirector, r -> ControlResponse.ok(""), l -> { }, () -> { });
        return WebServer.start(new InetSocketAddress("127.0.0.1", 0), Optional.empty(), console);
    }
}
