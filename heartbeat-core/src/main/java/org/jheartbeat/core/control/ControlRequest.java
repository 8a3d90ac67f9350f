package org.jheartbeat.core.control;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.jheartbeat.core.takeover.ResourceSet;

/**
 * One request on the control socket ({@link ControlServer}), as a typed record. The wire form is
 * one line of printable ASCII words separated by single spaces; {@link #parse(String)} is the only
 * place that reads it and {@link #toWire()} the only place that writes it.
 *
 * <pre>
 *  status | status-json                      Status(json)
 *  cl_status ARG...                           ClStatus(args)        (1..8 words)
 *  config-digest                              ConfigDigest
 *  groups-running                             GroupsRunning
 *  standby|takeover SET TIMEOUT_S             Handover(kind, set, timeoutSeconds)
 *  cleanup [GROUP]                            Cleanup(group)        (a group key or 1-based number)
 *  stonith-status                             StonithStatus
 *  reload                                     Reload
 *  maintenance on|off|status [node N|group G] Maintenance(action, scope)
 *  events SINCE_MS MAX                        Events(sinceMillis, max)  (journal lines, read-only)
 *                     SET = all|local|foreign|failback, TIMEOUT_S = 1..3600
 * </pre>
 */
public sealed interface ControlRequest
        permits ControlRequest.Status, ControlRequest.ClStatus, ControlRequest.ConfigDigest,
                ControlRequest.GroupsRunning, ControlRequest.Handover, ControlRequest.Cleanup,
                ControlRequest.StonithStatus, ControlRequest.Reload, ControlRequest.Maintenance,
                ControlRequest.Events, ControlRequest.OnBehalf {

    /** Longest request line, in bytes, newline excluded. */
    int MAX_LENGTH = 512;
    /** Most {@code cl_status} arguments (Heartbeat's longest form, {@code -m hblinkstatus NODE LINK}, has 4). */
    int MAX_CL_STATUS_ARGS = 8;
    /** Longest {@code hb standby}/{@code hb takeover} wait, in s. */
    int MAX_HANDOVER_TIMEOUT_S = 3600;

    /** The request line, without the newline. */
    String toWire();

    /**
     * Whether the request changes what the cluster does (a hand-over, a cleanup, a reload, maintenance on or off)
     * rather than only reading it: only root and the admin group may send those ({@link ControlAccess}).
     */
    default boolean changesState() {
        return this instanceof Handover || this instanceof Cleanup || this instanceof Reload
                || this instanceof Maintenance m && m.action() != MaintenanceAction.STATUS;
    }

    /** {@code status} (text) or {@code status-json}. */
    record Status(boolean json) implements ControlRequest {
        @Override
        public String toWire() {
            return json ? "status-json" : "status";
        }
    }

    /**
     * {@code cl_status ARG...}: Heartbeat 3.0.6's cl_status arguments, answered by the daemon.
     *
     * @param args 1..{@value #MAX_CL_STATUS_ARGS} words of printable ASCII without spaces
     * @throws IllegalArgumentException if {@code args} break that rule
     */
    record ClStatus(List<String> args) implements ControlRequest {
        public ClStatus {
            args = List.copyOf(args);
            if (args.isEmpty() || args.size() > MAX_CL_STATUS_ARGS) {
                throw new IllegalArgumentException("cl_status takes 1.." + MAX_CL_STATUS_ARGS + " arguments, got "
                        + args.size());
            }
            for (String a : args) {
                if (a.isEmpty() || !isPrintableAscii(a)) {
                    throw new IllegalArgumentException("cl_status arguments are printable ASCII words without spaces");
                }
            }
        }

        @Override
        public String toWire() {
            return "cl_status " + String.join(" ", args);
        }
    }

    /** {@code config-digest}: this node's and the peer's config digests ({@link ConfigDigestReport}). */
    record ConfigDigest() implements ControlRequest {
        @Override
        public String toWire() {
            return ConfigDigestReport.REQUEST;
        }
    }

    /**
     * {@code stonith-status}: the daemon asks its own STONITH device whether it answers (the daemon
     * holds the device: a second opener would find a serial line locked).
     */
    record StonithStatus() implements ControlRequest {
        @Override
        public String toWire() {
            return "stonith-status";
        }
    }

    /**
     * {@code reload}: re-read the config directory and apply what can be applied live ({@link
     * org.jheartbeat.core.config.ConfigReload}); the answer lists every change, one per
     * line, or the config check's {@code file:line} messages when the files are invalid (nothing applied).
     */
    record Reload() implements ControlRequest {
        @Override
        public String toWire() {
            return "reload";
        }
    }

    /** {@code groups-running}: the keys of the groups running here, one per line. */
    record GroupsRunning() implements ControlRequest {
        @Override
        public String toWire() {
            return "groups-running";
        }
    }

    /** Which way a hand-over goes: this node goes standby, or takes over from the peer. */
    enum HandoverKind {
        /** Heartbeat's {@code hb_standby}: hand our groups to the peer. */
        STANDBY,
        /** Heartbeat's {@code hb_takeover}: ask the peer for its groups. */
        TAKEOVER;

        /** The request verb: {@code standby} or {@code takeover}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * {@code standby|takeover SET TIMEOUT_S}: an operator hand-over; the daemon answers when it has
     * finished, was refused or cancelled, or after {@code timeoutSeconds}.
     *
     * @param kind           standby or takeover
     * @param set            which groups, relative to this node (never {@link ResourceSet#NONE})
     * @param timeoutSeconds how long the daemon waits for the end, 1..{@value #MAX_HANDOVER_TIMEOUT_S} s
     * @throws IllegalArgumentException when {@code set} is NONE or the timeout is out of range
     */
    record Handover(HandoverKind kind, ResourceSet set, int timeoutSeconds) implements ControlRequest {
        public Handover {
            if (kind == null || set == null || set == ResourceSet.NONE) {
                throw new IllegalArgumentException("a hand-over needs a kind and a set other than none");
            }
            if (timeoutSeconds < 1 || timeoutSeconds > MAX_HANDOVER_TIMEOUT_S) {
                throw new IllegalArgumentException("hand-over timeout must be 1.." + MAX_HANDOVER_TIMEOUT_S
                        + " s, got " + timeoutSeconds);
            }
        }

        @Override
        public String toWire() {
            return kind.wireName() + " " + set.wireName() + " " + timeoutSeconds;
        }
    }

    /**
     * {@code cleanup [GROUP]}: clear the failures of one resource group, or of every group
     * (docs/design/takeover.md, "Failures"); answered once the daemon applied it.
     *
     * @param group a haresources group key (its first resource) or its 1-based number, or empty for all
     * @throws IllegalArgumentException if {@code group} is not one printable ASCII word
     */
    record Cleanup(java.util.Optional<String> group) implements ControlRequest {
        public Cleanup {
            if (group == null || group.isPresent() && (group.get().isEmpty() || !isPrintableAscii(group.get()))) {
                throw new IllegalArgumentException("cleanup takes a group key or number: one printable ASCII word");
            }
        }

        @Override
        public String toWire() {
            return group.map(g -> "cleanup " + g).orElse("cleanup");
        }
    }

    /** What {@code hb maintenance} asks: turn a scope on or off, or show it. */
    enum MaintenanceAction {
        ON, OFF, STATUS;

        /** The request word: {@code on}, {@code off} or {@code status}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * {@code maintenance on|off|status [node NODE|group KEY]}: cluster-wide when no scope is given.
     *
     * @param action on, off or status
     * @param scope  cluster-wide, a node or a group key (one printable ASCII word)
     * @throws IllegalArgumentException when the scope's name is not one printable ASCII word
     */
    record Maintenance(MaintenanceAction action, org.jheartbeat.core.takeover.Maintenance.Scope scope)
            implements ControlRequest {
        public Maintenance {
            java.util.Objects.requireNonNull(action, "action");
            java.util.Objects.requireNonNull(scope, "scope");
            if (scope.kind() != org.jheartbeat.core.takeover.Maintenance.Kind.CLUSTER
                    && (scope.name().isEmpty() || !isPrintableAscii(scope.name()))) {
                throw new IllegalArgumentException("a maintenance node or group is one printable ASCII word");
            }
        }

        @Override
        public String toWire() {
            return "maintenance " + action.wireName() + (scope.kind() == org.jheartbeat.core.takeover.Maintenance.Kind.CLUSTER
                    ? "" : " " + scope.kind().name().toLowerCase(Locale.ROOT) + " " + scope.name());
        }
    }

    /**
     * {@code events SINCE_MS MAX}: the newest {@code max} journal events at or after {@code sinceMillis}, one
     * {@link org.jheartbeat.core.journal.EventCodec} line each, oldest first. Read-only: any caller may ask.
     *
     * @param sinceMillis ms since the epoch, ≥ 0
     * @param max         1..{@value #MAX_EVENTS}
     * @throws IllegalArgumentException when either is out of range
     */
    record Events(long sinceMillis, int max) implements ControlRequest {
        public Events {
            if (sinceMillis < 0 || max < 1 || max > MAX_EVENTS) {
                throw new IllegalArgumentException("events takes SINCE_MS >= 0 and MAX 1.." + MAX_EVENTS + ", got "
                        + sinceMillis + " " + max);
            }
        }

        @Override
        public String toWire() {
            return "events " + sinceMillis + " " + max;
        }
    }

    /**
     * {@code as WHO REQUEST}: a change forwarded by a front end for one of its users, e.g. the web console's
     * {@code as web:alice standby all 120}. The caller on the socket must itself be allowed the change
     * ({@link ControlAccess}); the daemon then names both as who asked ({@code web alice via user root ...}).
     *
     * @param who     {@code FRONTEND:USER}: a lower-case word, a colon, a user name ({@code [a-z_][a-z0-9_-]{0,31}})
     * @param request the change (never a read, never another {@code as})
     * @throws IllegalArgumentException when {@code who} is not of that form or {@code request} is not a change
     */
    record OnBehalf(String who, ControlRequest request) implements ControlRequest {
        public OnBehalf {
            if (who == null || !who.matches("[a-z]{1,16}:[a-z_][a-z0-9_-]{0,31}")) {
                throw new IllegalArgumentException("as takes FRONTEND:USER (e.g. web:alice), got " + who);
            }
            if (request == null || request instanceof OnBehalf || !request.changesState()) {
                throw new IllegalArgumentException("as forwards one change (standby, takeover, cleanup, maintenance"
                        + " on|off, reload), got " + (request == null ? "none" : request.toWire()));
            }
        }

        /** Who, as the journal and the log name it: {@code web alice}. */
        public String requester() {
            return who.replace(':', ' ');
        }

        @Override
        public boolean changesState() {
            return true;
        }

        @Override
        public String toWire() {
            return "as " + who + " " + request.toWire();
        }
    }

    /** Most events one {@code events} answer holds. */
    int MAX_EVENTS = 5000;

    /**
     * Reads one request line (without its newline). Never throws anything but
     * {@link MalformedRequestException}, whatever the input.
     *
     * @param line the line as received (decoded as ISO-8859-1 or UTF-8; any non-ASCII char is refused)
     * @return the request
     * @throws MalformedRequestException with a one-line reason: empty, longer than
     *                                   {@value #MAX_LENGTH} bytes, a control or non-ASCII character, doubled or
     *                                   edge spaces, an unknown verb, wrong argument count, a bad set or timeout
     */
    static ControlRequest parse(String line) throws MalformedRequestException {
        if (line == null || line.isEmpty()) {
            throw new MalformedRequestException("empty request");
        }
        int bytes = line.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_LENGTH) {
            throw new MalformedRequestException("request of " + bytes + " bytes is longer than " + MAX_LENGTH);
        }
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c != ' ' && (c < 0x21 || c > 0x7e)) {
                throw new MalformedRequestException(String.format(Locale.ROOT,
                        "character U+%04X at offset %d: requests are printable ASCII words separated by single spaces",
                        (int) c, i));
            }
        }
        if (line.startsWith(" ") || line.endsWith(" ") || line.contains("  ")) {
            throw new MalformedRequestException("leading, trailing or doubled space: words are separated by one space");
        }
        String[] w = line.split(" ");
        String verb = w[0];
        switch (verb) {
            case "status", "status-json", "config-digest", "groups-running", "stonith-status", "reload" -> {
                if (w.length != 1) {
                    throw new MalformedRequestException(verb + " takes no arguments, got " + (w.length - 1));
                }
                return switch (verb) {
                    case "status" -> new Status(false);
                    case "status-json" -> new Status(true);
                    case "config-digest" -> new ConfigDigest();
                    case "stonith-status" -> new StonithStatus();
                    case "reload" -> new Reload();
                    default -> new GroupsRunning();
                };
            }
            case "cl_status" -> {
                if (w.length < 2 || w.length - 1 > MAX_CL_STATUS_ARGS) {
                    throw new MalformedRequestException("cl_status takes 1.." + MAX_CL_STATUS_ARGS
                            + " arguments, got " + (w.length - 1));
                }
                return new ClStatus(List.of(w).subList(1, w.length));
            }
            case "standby", "takeover" -> {
                if (w.length != 3) {
                    throw new MalformedRequestException(verb + " takes 2 arguments (SET TIMEOUT_S), got "
                            + (w.length - 1));
                }
                ResourceSet set = ResourceSet.fromWire(w[1]).filter(s -> s != ResourceSet.NONE).orElseThrow(() ->
                        new MalformedRequestException(verb + ": unknown set '" + clip(w[1])
                                + "' (use all, local, foreign or failback)"));
                int timeout = w[2].matches("[0-9]{1,4}") ? Integer.parseInt(w[2]) : -1;
                if (timeout < 1 || timeout > MAX_HANDOVER_TIMEOUT_S) {
                    throw new MalformedRequestException(verb + ": timeout '" + clip(w[2]) + "' is not 1.."
                            + MAX_HANDOVER_TIMEOUT_S + " seconds");
                }
                return new Handover(verb.equals("standby") ? HandoverKind.STANDBY : HandoverKind.TAKEOVER, set, timeout);
            }
            case "cleanup" -> {
                if (w.length > 2) {
                    throw new MalformedRequestException("cleanup takes at most 1 argument (GROUP), got " + (w.length - 1));
                }
                return new Cleanup(w.length == 2 ? java.util.Optional.of(w[1]) : java.util.Optional.empty());
            }
            case "as" -> {
                if (w.length < 3) {
                    throw new MalformedRequestException("as takes FRONTEND:USER and a request, e.g. as web:alice"
                            + " standby all 120");
                }
                ControlRequest inner = parse(line.substring(4 + w[1].length()));
                try {
                    return new OnBehalf(w[1], inner);
                } catch (IllegalArgumentException e) {
                    throw new MalformedRequestException(e.getMessage());
                }
            }
            case "events" -> {
                long since = w.length == 3 && w[1].matches("0|[1-9][0-9]{0,17}") ? Long.parseLong(w[1]) : -1;
                int max = w.length == 3 && w[2].matches("[1-9][0-9]{0,3}") ? Integer.parseInt(w[2]) : -1;
                if (since < 0 || max < 1 || max > MAX_EVENTS) {
                    throw new MalformedRequestException("events takes SINCE_MS (ms since the epoch) and MAX (1.."
                            + MAX_EVENTS + "), decimal without leading zeros");
                }
                return new Events(since, max);
            }
            case "maintenance" -> {
                if (w.length != 2 && w.length != 4) {
                    throw new MalformedRequestException("maintenance takes on|off|status and optionally node NAME or"
                            + " group KEY, got " + (w.length - 1) + " words");
                }
                MaintenanceAction a = switch (w[1]) {
                    case "on" -> MaintenanceAction.ON;
                    case "off" -> MaintenanceAction.OFF;
                    case "status" -> MaintenanceAction.STATUS;
                    default -> throw new MalformedRequestException("maintenance: '" + clip(w[1])
                            + "' is not on, off or status");
                };
                if (w.length == 2) {
                    return new Maintenance(a, org.jheartbeat.core.takeover.Maintenance.Scope.CLUSTER);
                }
                var kind = switch (w[2]) {
                    case "node" -> org.jheartbeat.core.takeover.Maintenance.Kind.NODE;
                    case "group" -> org.jheartbeat.core.takeover.Maintenance.Kind.GROUP;
                    default -> throw new MalformedRequestException("maintenance: scope '" + clip(w[2])
                            + "' is not node or group");
                };
                return new Maintenance(a, new org.jheartbeat.core.takeover.Maintenance.Scope(kind, w[3]));
            }
            default -> throw new MalformedRequestException("unknown request '" + clip(verb) + "' (known: status,"
                    + " status-json, cl_status, config-digest, groups-running, standby, takeover, cleanup,"
                    + " stonith-status, reload, maintenance, events, as)");
        }
    }

    private static boolean isPrintableAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /** A word quoted back in an error, at most 32 characters (already known to be printable ASCII). */
    private static String clip(String word) {
        return word.length() <= 32 ? word : word.substring(0, 32) + "...";
    }
}
