package org.jheartbeat.resources.fakes;

import java.util.List;
import java.util.Objects;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;

/**
 * A stateful fake resource. By default start makes it running and stop makes it stopped, both OK;
 * status reports the state; it says it is a script unless {@link #script(boolean)} says otherwise.
 * Failures are scripted by count. Every call is appended to a journal
 * (shared between the agents of one {@link FakeAgents}) as {@code "<op> <name>"}.
 */
public final class FakeAgent implements ResourceAgent {
    private final String name;
    private final List<String> journal;
    private boolean running;
    private int startFailures;
    private int stopFailures;
    private boolean stopFailureLeavesRunning = true;
    private boolean script = true;

    /**
     * @param name    name used in the journal (normally the resource token)
     * @param journal shared, mutable call journal
     */
    public FakeAgent(String name, List<String> journal) {
        this.name = Objects.requireNonNull(name, "name");
        this.journal = Objects.requireNonNull(journal, "journal");
    }

    /** @param value whether the resource is running now @return this */
    public FakeAgent running(boolean value) {
        this.running = value;
        return this;
    }

    /** @param times how many next starts fail (state unchanged) @return this */
    public FakeAgent failStarts(int times) {
        this.startFailures = times;
        return this;
    }

    /**
     * @param times          how many next stops fail
     * @param leavesRunning  {@code true}: the resource stays running after a failed stop;
     *                       {@code false}: it stops anyway (a non-LSB script)
     * @return this
     */
    public FakeAgent failStops(int times, boolean leavesRunning) {
        this.stopFailures = times;
        this.stopFailureLeavesRunning = leavesRunning;
        return this;
    }

    /** @param value {@code false}: behave as a built-in agent (not a script) @return this */
    public FakeAgent script(boolean value) {
        this.script = value;
        return this;
    }

    @Override
    public boolean isScript() {
        return script;
    }

    /** @return whether the fake is running now */
    public boolean isRunning() {
        return running;
    }

    @Override
    public AgentResult start() {
        journal.add("start " + name);
        if (startFailures > 0) {
            startFailures--;
            return AgentResult.failed("scripted start failure of " + name, 1);
        }
        running = true;
        return AgentResult.ok("started");
    }

    @Override
    public AgentResult stop() {
        journal.add("stop " + name);
        if (stopFailures > 0) {
            stopFailures--;
            running = stopFailureLeavesRunning && running;
            return AgentResult.failed("scripted stop failure of " + name, 1);
        }
        running = false;
        return AgentResult.ok("stopped");
    }

    @Override
    public AgentResult reassert() {
        journal.add("reassert " + name);
        return AgentResult.ok("reasserted");
    }

    @Override
    public AgentResult status() {
        journal.add("status " + name);
        return running ? AgentResult.running("running") : AgentResult.stopped("stopped");
    }
}
