package org.jheartbeat.core.testkit;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * A {@link ProcessRunner} that runs nothing: it records every spec and answers from a script of
 * results keyed by argv prefix. The longest matching prefix wins; among rules of equal length the
 * one added first wins. A rule given several results answers them in order and then repeats the
 * last. A call that matches no rule gets {@link #defaultResult()} (exit 0, empty output).
 * Thread-safe, so background work (gratuitous ARP) can use it too.
 *
 * <pre>{@code
 * var runner = new RecordingProcessRunner()
 *         .on(List.of("ip", "-o", "-4", "addr", "show"), ProcessResult.exited(0, ""));
 * ... code under test ...
 * assertThat(runner.argvs()).containsExactly(List.of("ip", "-o", "-4", "addr", "show", "dev", "eth0"));
 * }</pre>
 */
public final class RecordingProcessRunner implements ProcessRunner {
    private record Rule(List<String> prefix, Deque<Object> answers) {
    }

    private final List<Rule> rules = new ArrayList<>();
    private final List<ProcessSpec> specs = new ArrayList<>();
    private ProcessResult defaultResult = ProcessResult.exited(0, "");

    /**
     * Scripts the answers for every argv starting with {@code prefix}.
     *
     * @param prefix  leading argv elements to match (may be empty: matches everything)
     * @param results answered in order; the last one repeats; at least one
     * @return this runner
     */
    public synchronized RecordingProcessRunner on(List<String> prefix, ProcessResult... results) {
        if (results.length == 0) {
            throw new IllegalArgumentException("at least one result");
        }
        rules.add(new Rule(List.copyOf(prefix), new ArrayDeque<>(List.of((Object[]) results))));
        return this;
    }

    /**
     * Makes every argv starting with {@code prefix} fail to start, as a missing program would.
     *
     * @param prefix  leading argv elements to match
     * @param failure thrown from {@link #run(ProcessSpec)}, every time
     * @return this runner
     */
    public synchronized RecordingProcessRunner failOn(List<String> prefix, IOException failure) {
        rules.add(new Rule(List.copyOf(prefix), new ArrayDeque<>(List.of(failure))));
        return this;
    }

    /**
     * @param result answer for calls that match no rule
     * @return this runner
     */
    public synchronized RecordingProcessRunner otherwise(ProcessResult result) {
        this.defaultResult = result;
        return this;
    }

    /** @return the answer for calls that match no rule */
    public synchronized ProcessResult defaultResult() {
        return defaultResult;
    }

    @Override
    public synchronized ProcessResult run(ProcessSpec spec) throws IOException {
        specs.add(spec);
        Rule best = null;
        for (Rule rule : rules) {
            if (startsWith(spec.argv(), rule.prefix())
                    && (best == null || rule.prefix().size() > best.prefix().size())) {
                best = rule;
            }
        }
        if (best == null) {
            return defaultResult;
        }
        Object answer = best.answers().size() > 1 ? best.answers().poll() : best.answers().peek();
        if (answer instanceof IOException failure) {
            throw failure;
        }
        return (ProcessResult) answer;
    }

    /** @return every spec run so far, in call order (a copy) */
    public synchronized List<ProcessSpec> specs() {
        return List.copyOf(specs);
    }

    /** @return the argv of every call so far, in call order (a copy) */
    public synchronized List<List<String>> argvs() {
        return specs.stream().map(ProcessSpec::argv).toList();
    }

    /**
     * @param prefix leading argv elements
     * @return the argv of calls starting with {@code prefix}, in call order
     */
    public synchronized List<List<String>> argvsStartingWith(List<String> prefix) {
        return argvs().stream().filter(a -> startsWith(a, prefix)).toList();
    }

    private static boolean startsWith(List<String> argv, List<String> prefix) {
        return argv.size() >= prefix.size() && argv.subList(0, prefix.size()).equals(prefix);
    }
}
