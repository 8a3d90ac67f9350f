package org.jheartbeat.director.table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.ServiceKey;

/**
 * A mutable model of the IPVS table that applies {@link TableCommand}s as the kernel does,
 * refusing what the kernel refuses with the kernel's words ("Service already exists",
 * "No such service", "Destination already exists", "No such destination"; ipvsadm 1.31). The
 * director keeps one as its view of what it has applied; not thread-safe.
 */
public final class IpvsTable {
    private final Map<ServiceKey, ServiceSpec> services = new TreeMap<>();
    private final Map<ServiceKey, Map<Endpoint, RealSpec>> reals = new TreeMap<>();

    /** An empty table. */
    public IpvsTable() {
    }

    /** A table holding what a snapshot shows (figures are dropped). */
    public static IpvsTable of(TableSnapshot snapshot) {
        IpvsTable t = new IpvsTable();
        for (TableService s : snapshot.services()) {
            t.services.put(s.spec().key(), s.spec());
            Map<Endpoint, RealSpec> m = new TreeMap<>();
            for (TableReal r : s.reals()) {
                m.put(r.spec().endpoint(), r.spec());
            }
            t.reals.put(s.spec().key(), m);
        }
        return t;
    }

    /**
     * Applies one command.
     *
     * @return empty if applied, else the kernel's error text (nothing changed)
     */
    public Optional<String> apply(TableCommand c) {
        if (c instanceof TableCommand.AddService a) {
            if (services.containsKey(a.service())) {
                return Optional.of("Service already exists");
            }
            services.put(a.service(), a.spec());
            reals.put(a.service(), new TreeMap<>());
        } else if (c instanceof TableCommand.EditService e) {
            if (!services.containsKey(e.service())) {
                return Optional.of("No such service");
            }
            services.put(e.service(), e.spec());
        } else if (c instanceof TableCommand.DeleteService d) {
            if (services.remove(d.service()) == null) {
                return Optional.of("No such service");
            }
            reals.remove(d.service());
        } else if (c instanceof TableCommand.SetReal s) {
            Map<Endpoint, RealSpec> m = reals.get(s.service());
            if (m == null) {
                return Optional.of("Service not defined");
            }
            RealSpec old = m.get(s.real().endpoint());
            if (s.edit() && old == null) {
                return Optional.of("No such destination");
            }
            if (!s.edit() && old != null) {
                return Optional.of("Destination already exists");
            }
            RealSpec next = s.withThresholds() || old == null ? s.real()
                    : new RealSpec(s.real().endpoint(), s.real().forward(), s.real().weight(), old.upperThreshold(),
                    old.lowerThreshold());
            m.put(s.real().endpoint(), next);
        } else if (c instanceof TableCommand.DeleteReal d) {
            Map<Endpoint, RealSpec> m = reals.get(d.service());
            if (m == null) {
                return Optional.of("Service not defined");
            }
            if (m.remove(d.real()) == null) {
                return Optional.of("No such destination");
            }
        }
        return Optional.empty();
    }

    /** Whether the table already shows the effect of this command (used when retrying). */
    public boolean shows(TableCommand c) {
        if (c instanceof TableCommand.AddService a) {
            return a.spec().equals(services.get(a.service()));
        } else if (c instanceof TableCommand.EditService e) {
            return e.spec().equals(services.get(e.service()));
        } else if (c instanceof TableCommand.DeleteService d) {
            return !services.containsKey(d.service());
        } else if (c instanceof TableCommand.SetReal s) {
            Optional<RealSpec> r = real(s.service(), s.real().endpoint());
            return r.isPresent() && r.get().forward() == s.real().forward() && r.get().weight() == s.real().weight()
                    && (!s.withThresholds() || r.get().upperThreshold() == s.real().upperThreshold()
                    && r.get().lowerThreshold() == s.real().lowerThreshold());
        } else if (c instanceof TableCommand.DeleteReal d) {
            return real(d.service(), d.real()).isEmpty();
        }
        return false;
    }

    /** The service, if present. */
    public Optional<ServiceSpec> service(ServiceKey key) {
        return Optional.ofNullable(services.get(key));
    }

    /** A real server of a service, if present. */
    public Optional<RealSpec> real(ServiceKey key, Endpoint endpoint) {
        Map<Endpoint, RealSpec> m = reals.get(key);
        return m == null ? Optional.empty() : Optional.ofNullable(m.get(endpoint));
    }

    /** The real servers of a service (empty if none or absent), in listing order. */
    public List<RealSpec> reals(ServiceKey key) {
        Map<Endpoint, RealSpec> m = reals.get(key);
        return m == null ? List.of() : List.copyOf(m.values());
    }

    /** The services present, in listing order. */
    public List<ServiceKey> serviceKeys() {
        return List.copyOf(services.keySet());
    }

    /** The table as a snapshot with zero figures. */
    public TableSnapshot snapshot() {
        List<TableService> out = new ArrayList<>();
        for (Map.Entry<ServiceKey, ServiceSpec> e : services.entrySet()) {
            List<TableReal> rs = new ArrayList<>();
            for (RealSpec r : reals.get(e.getKey()).values()) {
                rs.add(TableReal.idle(r));
            }
            out.add(new TableService(e.getValue(), rs, Counters.ZERO, Counters.ZERO));
        }
        return new TableSnapshot(out, List.of());
    }
}
