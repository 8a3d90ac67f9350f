package org.jheartbeat.director.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jheartbeat.director.table.BackendException;
import org.jheartbeat.director.table.IpvsTable;
import org.jheartbeat.director.table.ListView;
import org.jheartbeat.director.table.TableBackend;
import org.jheartbeat.director.table.TableCommand;
import org.jheartbeat.director.table.TableSnapshot;

/** An in-memory table that records the commands it applies and can be told to fail. */
final class FakeBackend implements TableBackend {
    final IpvsTable table = new IpvsTable();
    final List<String> commands = new ArrayList<>();
    final AtomicInteger failApplies = new AtomicInteger();
    /** Whether it says it applies the rejoin rules itself (as the user-space backend does). */
    volatile boolean appliesRejoinRules;
    final List<String> rejoinRules = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public boolean appliesRejoinRules() {
        return appliesRejoinRules;
    }

    @Override
    public void rejoinRules(org.jheartbeat.director.config.ServiceKey service,
            org.jheartbeat.director.config.Rejoin rules) {
        rejoinRules.add(service.address() + " " + rules);
    }

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public synchronized TableSnapshot read() {
        return table.snapshot();
    }

    @Override
    public synchronized TableSnapshot status(ListView view, boolean connections) {
        return table.snapshot();
    }

    @Override
    public synchronized void apply(List<TableCommand> batch) throws BackendException {
        if (failApplies.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new BackendException("injected failure", batch);
        }
        for (int i = 0; i < batch.size(); i++) {
            TableCommand c = batch.get(i);
            java.util.Optional<String> e = table.apply(c);
            if (e.isPresent()) {
                throw new BackendException(e.get() + ": " + c.commandLine(), batch.subList(i, batch.size()));
            }
            commands.add(c.commandLine());
        }
    }

    synchronized List<String> commands() {
        return List.copyOf(commands);
    }
}
