package org.jheartbeat.core.ping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jheartbeat.core.config.PingNodeDecl;
import org.junit.jupiter.api.Test;

class PingProberTest {
    @Test
    void aGroupAnswersWhenAnyHostDoesAndFailingProbesAreNotAnswers() {
        Set<String> answered = ConcurrentHashMap.newKeySet();
        Set<String> probed = ConcurrentHashMap.newKeySet();
        PingProber.Probe probe = (host, timeout) -> {
            probed.add(host);
            if (host.equals("198.18.0.9")) {
                throw new IOException("unreachable");
            }
            return host.equals("198.18.0.2");
        };
        try (PingProber p = new PingProber(List.of(
                new PingNodeDecl("routers", List.of("198.18.0.1", "198.18.0.2"), true, 1),
                new PingNodeDecl("198.18.0.3", List.of("198.18.0.3"), false, 2),
                new PingNodeDecl("198.18.0.9", List.of("198.18.0.9"), false, 3)), Duration.ofMillis(50), probe,
                answered::add)) {
            p.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> probed.size() == 4);
            await().atMost(Duration.ofSeconds(30)).until(() -> answered.contains("routers"));
        }
        assertThat(answered).containsExactly("routers");
    }
}
