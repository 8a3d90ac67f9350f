package org.jheartbeat.core.takeover;

import java.util.Optional;

/**
 * Which resource groups a node holds or hands over, relative to the node that says it: the
 * {@code rsc_hold} values of Heartbeat 3.0.6's {@code resource} and {@code ask_resources} messages
 * ({@code hb_resource.c}). {@code local} = groups whose preferred node is the speaker,
 * {@code foreign} = groups whose preferred node is the other node.
 */
public enum ResourceSet {
    NONE("none", false, false),
    LOCAL("local", true, false),
    FOREIGN("foreign", false, true),
    ALL("all", true, true);

    private final String wireName;
    private final boolean local;
    private final boolean foreign;

    ResourceSet(String wireName, boolean local, boolean foreign) {
        this.wireName = wireName;
        this.local = local;
        this.foreign = foreign;
    }

    /** The {@code rsc_hold} spelling. */
    public String wireName() {
        return wireName;
    }

    /** Whether the set includes the speaker's own (preferred) groups. */
    public boolean includesLocal() {
        return local;
    }

    /** Whether the set includes the other node's groups. */
    public boolean includesForeign() {
        return foreign;
    }

    /** The set with the given bits. */
    public static ResourceSet of(boolean local, boolean foreign) {
        return local ? (foreign ? ALL : LOCAL) : (foreign ? FOREIGN : NONE);
    }

    /** The same groups as the other node names them: {@code local} ↔ {@code foreign}. */
    public ResourceSet mirrored() {
        return of(foreign, local);
    }

    /** Parses an {@code rsc_hold} value; {@code failback} (hb_standby/hb_takeover argument) means {@code foreign}. */
    public static Optional<ResourceSet> fromWire(String s) {
        if ("failback".equals(s)) {
            return Optional.of(FOREIGN);
        }
        for (ResourceSet r : values()) {
            if (r.wireName.equals(s)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
