package org.jheartbeat.director.table;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.ServiceKey;

/**
 * One change to the virtual-service table, written as ldirectord 4.x writes the ipvsadm command
 * for it (facts {@code lvs.md} §3.6): {@code -A}/{@code -E}/{@code -D} for services,
 * {@code -a}/{@code -e}/{@code -d} for real servers.
 */
public sealed interface TableCommand {

    /** The ipvsadm arguments (without the program name). */
    List<String> args();

    /** The service this command touches. */
    ServiceKey service();

    /** The command line as ldirectord would run it: {@code ipvsadm ARGS}. */
    default String commandLine() {
        return "ipvsadm " + String.join(" ", args());
    }

    /** {@code ipvsadm -A FLAGS}: add a virtual service. */
    record AddService(ServiceSpec spec) implements TableCommand {
        public AddService {
            Objects.requireNonNull(spec, "spec");
        }

        @Override
        public List<String> args() {
            return prefixed("-A", spec.flags());
        }

        @Override
        public ServiceKey service() {
            return spec.key();
        }
    }

    /** {@code ipvsadm -E FLAGS}: edit a virtual service's scheduler and persistence. */
    record EditService(ServiceSpec spec) implements TableCommand {
        public EditService {
            Objects.requireNonNull(spec, "spec");
        }

        @Override
        public List<String> args() {
            return prefixed("-E", spec.flags());
        }

        @Override
        public ServiceKey service() {
            return spec.key();
        }
    }

    /** {@code ipvsadm -D -t VIP}: delete a virtual service and its real servers. */
    record DeleteService(ServiceKey service) implements TableCommand {
        public DeleteService {
            Objects.requireNonNull(service, "service");
        }

        @Override
        public List<String> args() {
            return prefixed("-D", service.ipvsadmArgs());
        }
    }

    /**
     * {@code ipvsadm -a|-e -t VIP [-x U -y L] -r RIP:P -g|-m|-i -w W}: add or edit a real server.
     * ldirectord writes the thresholds when it restores a server (and for the fallback) and leaves
     * them out when it quiesces one.
     *
     * @param service        the virtual service
     * @param real           the server
     * @param edit           {@code -e} (present) rather than {@code -a}
     * @param withThresholds whether {@code -x}/{@code -y} are written
     */
    record SetReal(ServiceKey service, RealSpec real, boolean edit, boolean withThresholds) implements TableCommand {
        public SetReal {
            Objects.requireNonNull(service, "service");
            Objects.requireNonNull(real, "real");
        }

        @Override
        public List<String> args() {
            List<String> a = new ArrayList<>();
            a.add(edit ? "-e" : "-a");
            a.addAll(service.ipvsadmArgs());
            if (withThresholds) {
                a.add("-x");
                a.add(Integer.toString(real.upperThreshold()));
                a.add("-y");
                a.add(Integer.toString(real.lowerThreshold()));
            }
            a.add("-r");
            a.add(real.endpoint().toString());
            a.add(real.forward().ipvsadmOption());
            a.add("-w");
            a.add(Integer.toString(real.weight()));
            return List.copyOf(a);
        }
    }

    /** {@code ipvsadm -d -t VIP -r RIP:P}: delete a real server. */
    record DeleteReal(ServiceKey service, Endpoint real) implements TableCommand {
        public DeleteReal {
            Objects.requireNonNull(service, "service");
            Objects.requireNonNull(real, "real");
        }

        @Override
        public List<String> args() {
            List<String> a = new ArrayList<>();
            a.add("-d");
            a.addAll(service.ipvsadmArgs());
            a.add("-r");
            a.add(real.toString());
            return List.copyOf(a);
        }
    }

    private static List<String> prefixed(String op, List<String> rest) {
        List<String> a = new ArrayList<>();
        a.add(op);
        a.addAll(rest);
        return List.copyOf(a);
    }
}
