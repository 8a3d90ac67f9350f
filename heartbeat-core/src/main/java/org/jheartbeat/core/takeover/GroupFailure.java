package org.jheartbeat.core.takeover;

import java.util.Locale;
import java.util.Optional;

/**
 * What went wrong with one resource group on one node, as the two jheartbeat nodes tell each other
 * in {@code jhb-grpfail} (docs/design/takeover.md, "Failures").
 */
public enum GroupFailure {
    /** Its start failed and was rolled back: the group does not run on that node; the other may run it. */
    START,
    /** Its stop failed: it may still run on that node, which keeps it; the other must not start it. */
    STOP,
    /**
     * Its stop failed and the node resets itself (self-fencing, only when the admin asked for it): the
     * other node starts the group once the sender is gone (declared dead, or restarted).
     */
    SELF_FENCE,
    /** An operator cleared the node's failure ({@code hb cleanup}): the group is managed normally again. */
    CLEAR;

    /** The word on the wire: {@code start}, {@code stop}, {@code selffence} or {@code clear}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace("_", "");
    }

    /** Parses {@link #wireName()}; empty for anything else. */
    public static Optional<GroupFailure> fromWire(String s) {
        for (GroupFailure f : values()) {
            if (f.wireName().equals(s)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
