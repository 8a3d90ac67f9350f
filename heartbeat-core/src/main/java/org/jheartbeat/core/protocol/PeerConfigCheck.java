package org.jheartbeat.core.protocol;

import org.jheartbeat.core.takeover.Effect;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jheartbeat.core.config.ConfigDigest;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.takeover.Effect.Level;

/**
 * Compares this node's {@link ConfigDigest} with the one the peer sent in {@code jhb-config}
 * and decides what to log: a WARN naming the differing files once per peer
 * generation and set of differing files (a peer changes its configuration by restarting, which
 * starts a new generation, or by a reload, which sends its digest again),
 * and an INFO when a peer that differed matches again. A plain match is not logged. Keeps the last
 * digest received, with the generation that sent it, for {@code hb status} and {@code hb config diff}.
 * Pure; not thread-safe (the engine's thread owns it).
 */
public final class PeerConfigCheck {
    private final NodeName peer;
    private ConfigDigest local;
    private ConfigDigest peerDigest;
    private long peerDigestGeneration = -1;
    /** The peer generation last warned about, and the parts it differed in. */
    private long warnedGeneration = -1;
    private List<ConfigDigest.Part> warnedParts = List.of();
    /** Whether the last comparison found a difference. */
    private boolean differed;
    /** The files of a WARN given and not yet taken by {@link #takeWarned()}. */
    private List<ConfigDigest.Part> unjournalled = List.of();

    /**
     * @param peer  the peer node, for log lines
     * @param local this node's digest
     */
    public PeerConfigCheck(NodeName peer, ConfigDigest local) {
        this.peer = Objects.requireNonNull(peer, "peer");
        this.local = Objects.requireNonNull(local, "local");
    }

    /**
     * The peer sent its digest.
     *
     * @param generation the peer's generation ({@code hg}) that sent it
     * @param digest     its digest
     * @return the line to log, if any
     */
    public Optional<Effect.LogLine> received(long generation, ConfigDigest digest) {
        peerDigest = Objects.requireNonNull(digest, "digest");
        peerDigestGeneration = generation;
        return compare(digest, generation, false, "");
    }

    /**
     * A reload changed this node's configuration: compares the new digest with the one the peer's
     * current generation sent, if any.
     *
     * @param next              this node's new digest
     * @param currentGeneration the peer's generation now
     * @return INFO when it matches the peer now and did not before, a WARN naming the files when it
     *         differs, else nothing
     */
    public Optional<Effect.LogLine> reloaded(ConfigDigest next, long currentGeneration) {
        local = Objects.requireNonNull(next, "next");
        Optional<ConfigDigest> theirs = peerDigest(currentGeneration);
        if (theirs.isEmpty()) {
            return Optional.empty();
        }
        return compare(theirs.get(), currentGeneration, true, " (after reload)");
    }

    /**
     * Compares this node's digest with the peer's and remembers what was said.
     *
     * @param theirs       the peer's digest
     * @param generation   the peer's generation that sent it
     * @param warnAgain    whether a WARN already given for this generation and these files is given again
     *                     (after a reload it is: this node's files changed)
     * @param afterWhat    put after the file names in the WARN, e.g. {@code " (after reload)"}
     * @return INFO when it matches and did not before, a WARN naming the files when it differs (unless
     *         said already), else nothing
     */
    private Optional<Effect.LogLine> compare(ConfigDigest theirs, long generation, boolean warnAgain, String afterWhat) {
        List<ConfigDigest.Part> diff = local.differences(theirs);
        if (diff.isEmpty()) {
            boolean wasDifferent = differed;
            differed = false;
            warnedParts = List.of();
            return wasDifferent ? Optional.of(new Effect.LogLine(Level.INFO, "Configuration matches " + peer + " now."))
                    : Optional.empty();
        }
        differed = true;
        if (!warnAgain && generation == warnedGeneration && diff.equals(warnedParts)) {
            return Optional.empty();
        }
        warnedGeneration = generation;
        warnedParts = diff;
        unjournalled = diff;
        return Optional.of(new Effect.LogLine(Level.WARN, "Configuration differs from " + peer + ": " + names(diff)
                + afterWhat + ". Make these files the same on both nodes and reload both (hb reload), or compare"
                + " with 'hb config diff'."));
    }

    /**
     * The files named by the "Configuration differs" WARN given since the last call, for the journal's
     * {@code config-dispute} (one event per WARN); empty when none was given.
     */
    public List<String> takeWarned() {
        List<String> out = unjournalled.stream().map(ConfigDigest.Part::displayName).toList();
        unjournalled = List.of();
        return out;
    }

    /** This node's digest. */
    public ConfigDigest local() {
        return local;
    }

    /**
     * The peer's digest, if it was sent by {@code currentGeneration} (a digest from an earlier run of
     * the peer says nothing about the config it runs now).
     */
    public Optional<ConfigDigest> peerDigest(long currentGeneration) {
        return peerDigest != null && peerDigestGeneration == currentGeneration ? Optional.of(peerDigest)
                : Optional.empty();
    }

    /**
     * The {@code Config:} line of {@code hb status}, without that prefix: {@code same as node2},
     * {@code DIFFERS from node2 in haresources}, or {@code unknown (...)}.
     *
     * @param currentGeneration the peer's generation now (0 when never heard)
     */
    public String statusLine(long currentGeneration) {
        if (currentGeneration <= 0) {
            return "unknown (" + peer + " not heard from)";
        }
        Optional<ConfigDigest> d = peerDigest(currentGeneration);
        if (d.isEmpty()) {
            return "unknown (" + peer + " sent no digest \u2014 a Heartbeat 3.0.6 peer?)";
        }
        List<ConfigDigest.Part> diff = local.differences(d.get());
        return diff.isEmpty() ? "same as " + peer : "DIFFERS from " + peer + " in " + names(diff);
    }

    private static String names(List<ConfigDigest.Part> parts) {
        return parts.stream().map(ConfigDigest.Part::displayName).collect(Collectors.joining(", "));
    }
}
