package org.jheartbeat.resources.monitor;

import java.time.Duration;
import java.util.Objects;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.config.ResourceClass;
import org.jheartbeat.core.config.ResourceSpec;

/**
 * How one resource is watched, with Pacemaker's meanings: {@code interval} of the recurring
 * {@code monitor} operation, its {@code timeout}, how many in-place restarts are allowed
 * ({@code migration-threshold} minus one) and how long a failure counts ({@code failure-timeout}).
 *
 * @param interval    time between the end of one monitor and the start of the next, &gt; 0 (default 10 s)
 * @param timeout     how long one monitor may take before it counts as failed, &gt; 0 (default 20 s)
 * @param maxRestarts in-place restarts allowed within {@code window}, &ge; 0 (default 3); the failure
 *                    after those moves the group
 * @param window      how long a failure counts towards {@code maxRestarts}, &gt; 0 (default 10 min)
 * @throws IllegalArgumentException if a duration is not positive or {@code maxRestarts} is negative
 */
public record MonitorSettings(Duration interval, Duration timeout, int maxRestarts, Duration window) {
    /** Every 10 s, 20 s timeout, 3 restarts within 10 minutes (docs/design/resources.md, "Monitoring"). */
    public static final MonitorSettings DEFAULT =
            new MonitorSettings(Duration.ofSeconds(10), Duration.ofSeconds(20), 3, Duration.ofMinutes(10));

    /**
     * How {@code spec} is watched, with the built-in defaults ({@link #DEFAULT}).
     *
     * @see #forResource(ResourceSpec, OperationTimeouts)
     */
    public static java.util.Optional<MonitorSettings> forResource(ResourceSpec spec, MonitorSettings defaults) {
        return forResource(spec, OperationTimeouts.NONE, false, defaults);
    }

    /**
     * How {@code spec} is watched: each of its haresources options ({@code op_monitor_interval},
     * {@code op_restart_limit}, {@code op_restart_window}, {@code op_monitor_timeout}) wins over the
     * node's default ({@code monitor:} in jheartbeat.yaml, given as the same options), which wins over
     * {@link #DEFAULT}. The LSB, OCF and systemd classes are watched: their status is a defined
     * exit code. Heartbeat-class resources ({@code resource.d} scripts, bare {@code init.d} names, the
     * built-in IPaddr, IPaddr2 and drbddisk) keep Heartbeat 3.0.6's behaviour, which never watched a
     * running resource (its status is read from the script's text, which many scripts get wrong),
     * unless the token has its own {@code op_monitor_interval=}.
     *
     * @param spec one haresources resource
     * @param node the node's defaults ({@link OperationTimeouts#NONE} when none are configured)
     * @return empty when the resource is not watched (interval {@code 0}/{@code off}, or a
     *         Heartbeat-class resource)
     * @throws IllegalArgumentException if the token does not parse (checked at config load)
     */
    public static java.util.Optional<MonitorSettings> forResource(ResourceSpec spec, OperationTimeouts node) {
        return forResource(spec, node, false, DEFAULT);
    }

    /**
     * As {@link #forResource(ResourceSpec, OperationTimeouts)}, but a Heartbeat-class resource is watched when
     * asked: by its own {@code op_monitor_interval=} in haresources (per resource), or by {@code scripts}
     * (jheartbeat.yaml's {@code monitor: heartbeat_class: yes}, node-wide, at the node's interval). Its status
     * is then read as Heartbeat reads it ({@code script status} printing "running"), so a script must print
     * "running" while it runs and something else (e.g. "stopped") when not; {@code hb config check} says
     * whether its answer can be told apart.
     *
     * @param scripts whether this node watches every Heartbeat-class resource
     */
    public static java.util.Optional<MonitorSettings> forResource(ResourceSpec spec, OperationTimeouts node,
                                                                 boolean scripts) {
        return forResource(spec, node, scripts, DEFAULT);
    }

    private static java.util.Optional<MonitorSettings> forResource(ResourceSpec spec, OperationTimeouts node,
                                                                  boolean scripts, MonitorSettings builtIn) {
        AgentRef ref = spec.agentRef();
        OperationTimeouts o = ref.timeouts();
        if (ref.resourceClass() == ResourceClass.HEARTBEAT && !scripts && o.monitorInterval().isEmpty()) {
            return java.util.Optional.empty();
        }
        Duration interval = o.monitorInterval().or(node::monitorInterval).orElse(builtIn.interval());
        if (interval.isZero()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new MonitorSettings(interval,
                o.forOperation(OperationTimeouts.Operation.MONITOR, builtIn.timeout()),
                o.restartLimit().isPresent() ? o.restartLimit().getAsInt()
                        : node.restartLimit().orElse(builtIn.maxRestarts()),
                o.restartWindow().or(node::restartWindow).orElse(builtIn.window())));
    }

    public MonitorSettings {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(window, "window");
        if (interval.isNegative() || interval.isZero() || timeout.isNegative() || timeout.isZero()
                || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("monitor interval, timeout and window must be positive");
        }
        if (maxRestarts < 0) {
            throw new IllegalArgumentException("maxRestarts must be 0 or more, not " + maxRestarts);
        }
    }
}
