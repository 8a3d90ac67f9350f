package org.jheartbeat.cli.runtime;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.resources.drbd.DrbdDiskAgent;
import org.jheartbeat.resources.lookup.ScriptLocator;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
import org.jheartbeat.resources.monitor.MonitorSettings;
import org.jheartbeat.resources.script.ScriptAgent;
import org.jheartbeat.resources.script.StatusAnswer;

/**
 * For {@code hb config check}: whether each Heartbeat-class script that this node watches answers
 * {@code status} in a way a monitor can read. The script's {@code status} is run once (read-only, as
 * the daemon runs it before its first beat) and its answer classified ({@link StatusAnswer}); an
 * answer that says neither running nor stopped is a warning, since the monitor would take the
 * running service for stopped and restart it, then move its group. Only the state the resource is
 * in now can be seen: a script is fully proven by running the check once where its group runs and
 * once where it does not. Built-in agents (IPaddr, IPaddr2, drbddisk) have a defined status and are
 * not run; a script that is missing is reported by the other checks.
 */
public final class WatchedScripts {
    /** Limit for one {@code status} run: as the monitor's default, 20 s. */
    static final Duration STATUS_TIMEOUT = Duration.ofSeconds(20);

    private WatchedScripts() {
    }

    /**
     * @param config       the cluster (its haresources and config dir)
     * @param watchScripts jheartbeat.yaml's {@code monitor: heartbeat_class:}
     * @param initDir      where init scripts are looked up after {@code resource.d}
     * @param runner       runs each status
     * @return a warning at the group's haresources line per script whose answer cannot be read
     */
    public static List<ConfigDiagnostic> check(ClusterConfig config, boolean watchScripts, Path initDir,
            ProcessRunner runner) {
        List<ConfigDiagnostic> out = new ArrayList<>();
        Path haresources = config.configDir().resolve("haresources");
        ScriptLocator locator = ScriptLocator.of(config.configDir(), initDir);
        for (ResourceGroupDecl g : config.resourceGroups()) {
            for (ResourceSpec r : g.resources()) {
                AgentRef ref;
                try {
                    ref = r.agentRef();
                } catch (IllegalArgumentException e) {
                    continue; // the parser reported it
                }
                if (!(ref instanceof AgentRef.Heartbeat h) || StandardResourceAgents.IP_AGENTS.contains(h.name())
                        || h.name().equals(DrbdDiskAgent.NAME) || !locator.exists(h.name())
                        || MonitorSettings.forResource(r, OperationTimeouts.NONE, watchScripts).isEmpty()) {
                    continue;
                }
                ScriptAgent agent = new ScriptAgent(locator.locate(h.name(), r.token()), h.args(), runner);
                String why = unreadable(agent, runner);
                if (why != null) {
                    out.add(ConfigDiagnostic.warning(haresources, g.line(), r.token() + " is watched, but " + why
                            + ": the monitor would take it for stopped while it runs, restart it and move its group;"
                            + " make '" + h.name() + " status' print 'running' while it runs and 'stopped' when not,"
                            + " or stop watching it (::op_monitor_interval=0)"));
                }
            }
        }
        return out;
    }

    /** Why the answer cannot be read, or null when it says running or stopped in words. */
    private static String unreadable(ScriptAgent agent, ProcessRunner runner) {
        ProcessResult result;
        try {
            result = runner.run(ProcessSpec.of(STATUS_TIMEOUT, agent.argv("status")));
        } catch (IOException e) {
            return "its status could not run (" + e.getMessage() + ")";
        }
        if (result.timedOut()) {
            return "its status did not answer within " + STATUS_TIMEOUT.toSeconds() + " s";
        }
        if (StatusAnswer.of(result.stdout()) != StatusAnswer.UNCLEAR) {
            return null;
        }
        String text = (result.stdout() + " " + result.stderr()).strip().replaceAll("\\s+", " ")
                .replaceAll("[^\\x20-\\x7e]", "?");
        return "'status' printed " + (text.isEmpty() ? "nothing" : "[" + (text.length() > 80 ? text.substring(0, 80)
                + "…" : text) + "]") + ", neither running nor stopped";
    }
}
