package org.jheartbeat.core.protocol;

import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;

/**
 * Encodes and decodes {@code jhb-maint} (docs/design/takeover.md, "Maintenance"), pure.
 * Three kinds, by {@code maint_op}:
 * <pre>
 *  set    maint_ver maint_cl [maint_nodes] [maint_grps] [maint_runs] [maint_yours]   the setting; runs = groups
 *         running on the sender, yours = groups the receiver's own probe found running on it
 *  probe  maint_req                                          please probe every group and answer
 *  runs   maint_req [maint_runs]                             the answer: groups running on the sender
 * </pre>
 * Lists are comma-separated group keys or node names, %-escaped ({@link Maintenance#list}); an empty
 * list is sent as no field.
 */
public final class MaintenanceMessages {
    /** Most characters of one list field accepted: 8 KiB. */
    public static final int MAX_LIST = 8192;

    private MaintenanceMessages() {
    }

    /** A decoded {@code jhb-maint}. */
    public sealed interface Decoded {
        /** {@code set}: the sender's setting, the groups running on it, and ours as its probe exchange found them. */
        record Set(Maintenance setting, SortedSet<String> runs, Optional<SortedSet<String>> yours) implements Decoded { }

        /** {@code probe}: the sender asks for our running groups, answer with {@code runs} and the same number. */
        record Probe(long request) implements Decoded { }

        /** {@code runs}: the answer to probe {@code request}. */
        record Runs(long request, SortedSet<String> runs) implements Decoded { }

        /** Not readable: why, for the bad-packet log. */
        record Malformed(String reason) implements Decoded { }
    }

    /** The {@code set} message. */
    public static HaMessage set(Maintenance m, java.util.Collection<String> runs,
                                Optional<? extends java.util.Collection<String>> yours) {
        HaMessage.Builder b = HaMessage.builder().add(Field.TYPE, MessageType.MAINTENANCE.wireName())
                .add(Field.MAINT_OP, "set")
                .add(Field.MAINT_VERSION, Long.toString(m.version()))
                .add(Field.MAINT_CLUSTER, m.cluster() ? "on" : "off");
        if (!m.nodes().isEmpty()) {
            b.add(Field.MAINT_NODES, Maintenance.list(m.nodes()));
        }
        if (!m.groups().isEmpty()) {
            b.add(Field.MAINT_GROUPS, Maintenance.list(m.groups()));
        }
        if (!runs.isEmpty()) {
            b.add(Field.MAINT_RUNS, Maintenance.list(runs));
        }
        if (yours.isPresent()) {
            b.add(Field.MAINT_YOURS, yours.get().isEmpty() ? "-" : Maintenance.list(yours.get()));
        }
        return b.build();
    }

    /** The {@code probe} request number {@code request}. */
    public static HaMessage probe(long request) {
        return HaMessage.builder().add(Field.TYPE, MessageType.MAINTENANCE.wireName()).add(Field.MAINT_OP, "probe")
                .add(Field.MAINT_REQUEST, Long.toString(request)).build();
    }

    /** The {@code runs} answer to {@code request}. */
    public static HaMessage runs(long request, java.util.Collection<String> runs) {
        HaMessage.Builder b = HaMessage.builder().add(Field.TYPE, MessageType.MAINTENANCE.wireName())
                .add(Field.MAINT_OP, "runs").add(Field.MAINT_REQUEST, Long.toString(request));
        if (!runs.isEmpty()) {
            b.add(Field.MAINT_RUNS, Maintenance.list(runs));
        }
        return b.build();
    }

    /** Reads any {@code jhb-maint}; never throws. */
    public static Decoded decode(HaMessage m) {
        try {
            String op = m.get(Field.MAINT_OP).orElse("");
            switch (op) {
                case "set" -> {
                    String v = m.get(Field.MAINT_VERSION).orElse("");
                    String cl = m.get(Field.MAINT_CLUSTER).orElse("");
                    if (!v.matches("[0-9]{1,18}") || !(cl.equals("on") || cl.equals("off"))) {
                        return new Decoded.Malformed("jhb-maint set without a valid maint_ver or maint_cl");
                    }
                    Maintenance s = new Maintenance(Long.parseLong(v), cl.equals("on"), list(m, Field.MAINT_NODES),
                            list(m, Field.MAINT_GROUPS));
                    Optional<SortedSet<String>> yours = m.get(Field.MAINT_YOURS).map(y -> y.equals("-")
                            ? new TreeSet<>() : list(m, Field.MAINT_YOURS));
                    return new Decoded.Set(s, list(m, Field.MAINT_RUNS), yours);
                }
                case "probe", "runs" -> {
                    String r = m.get(Field.MAINT_REQUEST).orElse("");
                    if (!r.matches("[0-9]{1,18}")) {
                        return new Decoded.Malformed("jhb-maint " + op + " without a valid maint_req");
                    }
                    return op.equals("probe") ? new Decoded.Probe(Long.parseLong(r))
                            : new Decoded.Runs(Long.parseLong(r), list(m, Field.MAINT_RUNS));
                }
                default -> {
                    return new Decoded.Malformed("jhb-maint with unknown maint_op '"
                            + (op.length() > 16 ? op.substring(0, 16) + "..." : op) + "'");
                }
            }
        } catch (IllegalArgumentException e) {
            return new Decoded.Malformed("jhb-maint: " + e.getMessage());
        }
    }

    private static SortedSet<String> list(HaMessage m, Field f) {
        String v = m.get(f).orElse("");
        if (v.length() > MAX_LIST) {
            throw new IllegalArgumentException(f.wireName() + " longer than " + MAX_LIST + " characters");
        }
        return Maintenance.parseList(v, 0);
    }
}
