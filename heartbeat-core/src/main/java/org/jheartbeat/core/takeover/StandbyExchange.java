package org.jheartbeat.core.takeover;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.takeover.TakeoverMachine.Handover;

/**
 * The standby exchange of the {@link TakeoverMachine} (Heartbeat's {@code hb_standby} / {@code ask_resources}
 * protocol, {@code hb_resource.c}) and the operator request it serves: the set being handed over and where
 * this node is in the exchange (STANDBY_GIVING or STANDBY_TAKING), and for the latest {@code hb standby} /
 * {@code hb takeover} (or auto_failback's standby) its outcome, its detail line, the groups that did not end
 * where they were meant to, its serial number, the deadline of a takeover request awaiting the peer's
 * standby, and the count of finished requests by kind and outcome (metrics). The machine decides the
 * transitions; this class keeps the record. Its public methods are what the machine's owner reads of the
 * operator's requests ({@link TakeoverMachine#handovers}). Mutable, owned by the machine's thread.
 */
public final class StandbyExchange {
    /** The set being handed over, relative to the node that gives it. */
    private ResourceSet set = ResourceSet.NONE;
    /** Where this node is in a standby exchange (STANDBY_GIVING or STANDBY_TAKING); NONE otherwise. */
    private StandbyStep step = StandbyStep.NONE;
    private Handover outcome = Handover.NONE;
    /** Whether the operator request {@link #outcome} is about was a takeover (else a standby). */
    private boolean isTakeover;
    /** Finished operator requests of this node, by [takeover ? 1 : 0][outcome ordinal] (metrics). */
    private final long[][] finished = new long[2][Handover.values().length];
    private String detail = "";
    private long serial;
    /** When a takeover request stops waiting for the peer's standby (monotonic ns), or {@link Long#MAX_VALUE}. */
    private long deadlineNanos = Long.MAX_VALUE;
    /** Whether this node ran none of the groups of the standby in progress when it began: nothing to give back. */
    private boolean givesNothing;
    /** Groups of the current hand-over that did not end where they were meant to, one line each. */
    private final List<String> problems = new ArrayList<>();

    /** The set being handed over. */
    ResourceSet set() {
        return set;
    }

    /** See {@link #set()}. */
    void set(ResourceSet handed) {
        set = handed;
    }

    /** Where this node is in the exchange. */
    StandbyStep step() {
        return step;
    }

    /** See {@link #step()}. */
    void step(StandbyStep next) {
        step = next;
    }

    /**
     * A new operator request ({@code takeover}: {@code hb takeover}, else a standby): its kind is what a
     * finish counts from now on, and the serial moves on.
     */
    void request(boolean takeover) {
        isTakeover = takeover;
    }

    /** Moves the serial on: every request, refused or not, gets its own. */
    void nextSerial() {
        serial++;
    }

    /** The request runs: IN_PROGRESS, no problems yet, {@code what} as its detail line. */
    void begin(String what) {
        outcome = Handover.IN_PROGRESS;
        problems.clear();
        detail = what;
    }

    /** See {@link #givesNothing()}. */
    void givesNothing(boolean none) {
        givesNothing = none;
    }

    /** Whether this node ran none of the groups of the standby in progress when it began. */
    boolean givesNothing() {
        return givesNothing;
    }

    /** Whether a request is in progress. */
    boolean inProgress() {
        return outcome == Handover.IN_PROGRESS;
    }

    /** A group of the current hand-over did not end where it was meant to: one line for the outcome. */
    void problem(String line) {
        problems.add(line);
    }

    /** The problems so far, joined with {@code "; "}. */
    String problems() {
        return String.join("; ", problems);
    }

    /** The exchange ran to its end: DONE, or FAILED naming every group that did not end where it should. */
    void finishDone(String what) {
        if (problems.isEmpty()) {
            finish(Handover.DONE, what);
        } else {
            finish(Handover.FAILED, what + ", but " + String.join("; ", problems));
        }
    }

    /** The request ended with {@code result}; counted by kind and outcome. */
    void finish(Handover result, String what) {
        finished[isTakeover ? 1 : 0][result.ordinal()]++;
        outcome = result;
        detail = what;
        deadlineNanos = Long.MAX_VALUE;
    }

    /** When a takeover request stops waiting for the peer's standby. */
    long deadlineNanos() {
        return deadlineNanos;
    }

    /** See {@link #deadlineNanos()}. */
    void deadlineNanos(long at) {
        deadlineNanos = at;
    }

    /** Outcome of the latest standby/takeover request (operator or auto-failback). */
    public Handover outcome() {
        return outcome;
    }

    /** One line about {@link #outcome()}: what was asked and how it ended. */
    public String detail() {
        return detail;
    }

    /** Increases with every standby/takeover request, so a caller can tell its own from a later one. */
    public long serial() {
        return serial;
    }

    /**
     * Standby or takeover requests of this node ({@code hb standby}, {@code hb takeover}, and the
     * standby of auto_failback handing the peer its groups back) that ended with {@code result}
     * (DONE, FAILED, CANCELLED or REFUSED), since start.
     *
     * @param takeover true for takeover requests, false for standby requests
     */
    public long finished(boolean takeover, Handover result) {
        return finished[takeover ? 1 : 0][result.ordinal()];
    }
}
