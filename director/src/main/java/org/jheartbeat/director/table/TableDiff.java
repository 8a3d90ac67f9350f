package org.jheartbeat.director.table;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.director.config.ServiceKey;

/**
 * The commands that turn the current table into the wanted one, for a given set of services only:
 * services outside the set are never touched (the director never flushes what it does not own).
 * Pure.
 */
public final class TableDiff {
    private TableDiff() {
    }

    /**
     * @param current what the table holds
     * @param wanted  what it should hold
     * @param scope   the services the director owns; others are left alone
     * @return {@code -A}/{@code -E}/{@code -D} and {@code -a}/{@code -e}/{@code -d} commands, services
     *         before their reals, deletions of reals before additions
     */
    public static List<TableCommand> between(IpvsTable current, IpvsTable wanted, Collection<ServiceKey> scope) {
        List<TableCommand> out = new ArrayList<>();
        for (ServiceKey k : scope) {
            Optional<ServiceSpec> want = wanted.service(k);
            Optional<ServiceSpec> have = current.service(k);
            if (want.isEmpty()) {
                if (have.isPresent()) {
                    out.add(new TableCommand.DeleteService(k));
                }
                continue;
            }
            if (have.isEmpty()) {
                out.add(new TableCommand.AddService(want.get()));
            } else if (!have.get().equals(want.get())) {
                out.add(new TableCommand.EditService(want.get()));
            }
            List<RealSpec> wantReals = wanted.reals(k);
            for (RealSpec r : current.reals(k)) {
                if (wantReals.stream().noneMatch(w -> w.endpoint().equals(r.endpoint()))) {
                    out.add(new TableCommand.DeleteReal(k, r.endpoint()));
                }
            }
            for (RealSpec w : wantReals) {
                Optional<RealSpec> h = current.real(k, w.endpoint());
                if (h.isEmpty()) {
                    out.add(new TableCommand.SetReal(k, w, false, true));
                } else if (!h.get().equals(w)) {
                    out.add(new TableCommand.SetReal(k, w, true, true));
                }
            }
        }
        return out;
    }
}
