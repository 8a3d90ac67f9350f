package org.jheartbeat.cli.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.runtime.SshTransport;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;
import org.jheartbeat.director.runtime.ControlSocket;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Where the console's data comes from, the I/O edge: the local daemon's status and journal through its control
 * socket, the director's table through its socket, and the peer's journal over ssh ({@code hb events --json
 * --since TIME} on the peer, as {@code hb config push} reaches it), fetched at most every {@link #PEER_EVERY_MS}
 * and kept between fetches. Each call is bounded; a source that fails becomes a sentence on the page.
 */
public final class Sources {
    /** The least time between two fetches of the peer's journal, in ms. */
    public static final long PEER_EVERY_MS = 5_000;
    /** How far back the journals are read, in ms (7 days: the longest window offered). */
    static final long HISTORY_MS = 7 * 24 * 3_600_000L;
    /** Most events read from each journal per fetch. */
    static final int MAX_EVENTS = 2_000;

    /**
     * Settings.
     *
     * @param daemonSocket   the daemon's control socket
     * @param directorSocket the director's control socket, if any
     * @param ssh            the ssh command line for the peer, split on blanks
     * @param peerHost       where the peer is reached, or empty: the peer's node name from the status
     * @param peerHb         the {@code hb} command on the peer
     */
    public record Settings(Path daemonSocket, Optional<Path> directorSocket, List<String> ssh, Optional<String> peerHost,
                           String peerHb) { }

    private final Settings settings;
    private final Clock clock;
    private volatile List<ClusterEvent> peerEvents = List.of();
    private volatile String peerError = "not fetched yet";
    private volatile long peerFetched;
    private volatile String peerName = "";

    public Sources(Settings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** Everything now, the peer's journal as last fetched ({@link #fetchPeer()}). Called on one thread. */
    public Snapshot take() {
        long now = clock.millis();
        Optional<Map<String, Object>> status = Optional.empty();
        String statusError = "";
        try {
            ControlResponse r = ControlClient.request(settings.daemonSocket(), new ControlRequest.Status(true));
            status = r.kind() == ControlResponse.Kind.OK ? Optional.of(json(r.body())) : Optional.empty();
            statusError = status.isPresent() ? "" : r.kind() + " " + r.error();
        } catch (IOException | RuntimeException e) {
            statusError = e.getMessage();
        }
        String local = status.map(s -> Html.str(s, "node", "")).orElse("");
        String peer = status.map(s -> Html.objects(s, "nodes").stream()
                .filter(n -> !Boolean.TRUE.equals(n.get("local")) && !"ping".equals(Html.str(n, "type", "")))
                .map(n -> Html.str(n, "name", "")).findFirst().orElse("")).orElse("");
        List<ClusterEvent> mine = List.of();
        String journalError = "";
        try {
            mine = localEvents(now - HISTORY_MS);
        } catch (IOException e) {
            journalError = e.getMessage();
        }
        peerName = peer;
        Optional<Map<String, Object>> director = Optional.empty();
        String directorError = "no director is configured here (ldirectord.cf)";
        if (settings.directorSocket().isPresent()) {
            try {
                String a = ControlSocket.request(settings.directorSocket().get(), "status DEFAULT 0 json", 5_000);
                director = a.startsWith("OK\n") ? Optional.of(json(a.substring(3))) : Optional.empty();
                directorError = a.startsWith("OK\n") ? "" : a.strip();
            } catch (IOException | RuntimeException e) {
                directorError = "no director answers on " + settings.directorSocket().get() + " (" + e.getMessage() + ")";
            }
        }
        return new Snapshot(local, status, statusError, Timeline.merge(mine, peerEvents), journalError, peer,
                peer.isEmpty() ? "" : peerError, peerFetched, director, directorError, now);
    }

    /** This node's journal since {@code since} (ms since the epoch), through the control request {@code events}. */
    private List<ClusterEvent> localEvents(long since) throws IOException {
        ControlResponse r = ControlClient.request(settings.daemonSocket(), new ControlRequest.Events(since, MAX_EVENTS));
        if (r.kind() != ControlResponse.Kind.OK) {
            throw new IOException("the daemon answered " + r.kind() + " " + r.error() + " to the journal request");
        }
        return lines(r.body());
    }

    /**
     * Fetches the peer's journal over ssh (at most 15 s) into the cache {@link #take()} reads; nothing while the
     * peer is not known. Called every {@link #PEER_EVERY_MS} on a thread of its own, so an unreachable peer never
     * holds up the local view.
     */
    public void fetchPeer() {
        String peer = peerName;
        if (peer.isEmpty()) {
            return;
        }
        String host = settings.peerHost().orElse(peer);
        long now = clock.millis();
        long since = now - HISTORY_MS;
        SshTransport t = new SshTransport(settings.ssh(), host, 15);
        try {
            SshTransport.Reply r = t.run(settings.peerHb() + " events --json --since "
                    + Instant.ofEpochMilli(since), new byte[0]);
            if (r.code() != 0) {
                peerError = r.code() == 255 ? t.describeFailure(r, "", "--peer") : "hb events on " + host + " exited " + r.code()
                        + ": " + r.err().strip();
                return;
            }
            peerEvents = lines(new String(r.out(), StandardCharsets.UTF_8));
            peerError = "";
            peerFetched = now;
        } catch (UserException e) {
            peerError = e.getMessage();
        }
    }

    /** Journal lines to events; a line that is not an event (a blank, a truncated line) is skipped. */
    static List<ClusterEvent> lines(String text) {
        List<ClusterEvent> out = new ArrayList<>();
        text.lines().forEach(l -> EventCodec.parse(l).ifPresent(out::add));
        return out;
    }

    /** A JSON object (JSON is YAML: SnakeYAML's safe loader reads it into maps and lists). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> json(String text) {
        LoaderOptions o = new LoaderOptions();
        o.setCodePointLimit(4 << 20);
        Object v = new Yaml(new SafeConstructor(o)).load(text);
        if (!(v instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        return (Map<String, Object>) v;
    }
}
