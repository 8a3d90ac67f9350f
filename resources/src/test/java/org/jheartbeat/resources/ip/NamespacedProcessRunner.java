package org.jheartbeat.resources.ip;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * Test decorator running every command inside a network namespace by prefixing its argv with
 * {@code ip netns exec NS} (iproute2 enters the namespace and execs the program, so the child's
 * PID is the program's and timeouts still kill the right process). Also keeps every spec and
 * result so tests can check background work such as gratuitous ARP. Needs root.
 */
final class NamespacedProcessRunner implements ProcessRunner {
    /** One finished run: the argv as the agent built it (without the prefix) and its result. */
    record Run(List<String> argv, ProcessResult result) {
    }

    private final String namespace;
    private final ProcessRunner delegate;
    private final List<Run> runs = new ArrayList<>();

    NamespacedProcessRunner(String namespace, ProcessRunner delegate) {
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public ProcessResult run(ProcessSpec spec) throws IOException {
        List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        argv.addAll(spec.argv());
        ProcessResult result = delegate.run(new ProcessSpec(argv, spec.env(), spec.timeout()));
        synchronized (runs) {
            runs.add(new Run(spec.argv(), result));
        }
        return result;
    }

    /** @param program argv[0] to select @return the finished runs of that program, in order */
    List<Run> runsOf(String program) {
        synchronized (runs) {
            return runs.stream().filter(r -> r.argv().get(0).equals(program)).toList();
        }
    }
}
