package org.jheartbeat.cli.web;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The console's logins: sessions (a random cookie, its user, role and CSRF token, dropped after
 * {@link #IDLE_MS} unused) and the login rate limit (at most {@link #MAX_FAILURES} failed logins per client
 * address in {@link #FAILURE_WINDOW_MS}). Thread-safe; time from the injected clock.
 */
public final class Sessions {
    /** A session unused this long, in ms (30 min), is logged out. */
    static final long IDLE_MS = 30 * 60_000L;
    /** Sessions kept at once; a further login drops the least recently used. */
    static final int MAX_SESSIONS = 256;
    /** Failed logins allowed per client address in {@link #FAILURE_WINDOW_MS}. */
    static final int MAX_FAILURES = 5;
    /** The window of the failed-login count, in ms (1 min). */
    static final long FAILURE_WINDOW_MS = 60_000L;
    /** Client addresses whose failures are remembered at once. */
    private static final int MAX_ADDRESSES = 4096;

    /** One login. */
    public record Session(String id, String user, Roles.Role role, String csrf) {
        /** Whether {@code token} is this session's CSRF token (constant-time). */
        public boolean csrfMatches(String token) {
            return token != null && MessageDigest.isEqual(csrf.getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                    token.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }

        /** {@code alice (admin)}. */
        public String describe() {
            return user + " (" + (role == Roles.Role.ADMIN ? "admin" : "read-only") + ")";
        }
    }

    private final Clock clock;
    private final SecureRandom random;
    private final LinkedHashMap<String, Session> sessions = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, Long> lastUse = new HashMap<>();
    private final Map<String, Deque<Long>> failures = new LinkedHashMap<>();

    public Sessions(Clock clock, SecureRandom random) {
        this.clock = clock;
        this.random = random;
    }

    /** A new session for {@code user}. */
    public synchronized Session open(String user, Roles.Role role) {
        if (sessions.size() >= MAX_SESSIONS) {
            String oldest = sessions.keySet().iterator().next();
            sessions.remove(oldest);
            lastUse.remove(oldest);
        }
        Session s = new Session(token(), user, role, token());
        sessions.put(s.id(), s);
        lastUse.put(s.id(), clock.millis());
        return s;
    }

    /** The live session with cookie value {@code id}; touching it keeps it alive. */
    public synchronized Optional<Session> find(String id) {
        if (id == null) {
            return Optional.empty();
        }
        Session s = sessions.get(id);
        if (s == null) {
            return Optional.empty();
        }
        long now = clock.millis();
        if (now - lastUse.get(id) > IDLE_MS) {
            close(id);
            return Optional.empty();
        }
        lastUse.put(id, now);
        return Optional.of(s);
    }

    /** Logs session {@code id} out. */
    public synchronized void close(String id) {
        sessions.remove(id);
        lastUse.remove(id);
    }

    /** Whether {@code address} may try to log in now (fewer than {@link #MAX_FAILURES} recent failures). */
    public synchronized boolean mayTry(String address) {
        Deque<Long> d = failures.get(address);
        if (d == null) {
            return true;
        }
        long now = clock.millis();
        while (!d.isEmpty() && now - d.peekFirst() >= FAILURE_WINDOW_MS) {
            d.pollFirst();
        }
        return d.size() < MAX_FAILURES;
    }

    /** Counts a failed login from {@code address}. */
    public synchronized void failed(String address) {
        if (!failures.containsKey(address) && failures.size() >= MAX_ADDRESSES) {
            failures.remove(failures.keySet().iterator().next());
        }
        failures.computeIfAbsent(address, a -> new ArrayDeque<>()).addLast(clock.millis());
    }

    private String token() {
        byte[] b = new byte[32];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
