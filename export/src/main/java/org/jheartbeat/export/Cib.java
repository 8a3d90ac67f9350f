package org.jheartbeat.export;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The configuration section of a Pacemaker 2.1 CIB as the export builds it: only the elements it
 * writes (Pacemaker Explained 2.1, "Resources", "Constraints", "Cluster Options"). Immutable; the
 * renderers ({@link CibXml}, {@link CommandScripts}) turn it into XML or {@code pcs}/{@code crm}
 * commands. Ids are XML ids (unique across the whole CIB), made by {@link PacemakerExporter}.
 *
 * @param clusterName     corosync {@code cluster_name}, also the {@code cluster-name} property
 * @param clusterOptions  {@code crm_config} properties, in order
 * @param nodes           the nodes: corosync node ids 1, 2 in ha.cf order
 * @param fencing         STONITH primitives ({@code class="stonith"}), in ha.cf order
 * @param clones          clones (the ping clone, promotable DRBD clones), before the groups
 * @param groups          one group per haresources line, in file order
 * @param constraints     location, colocation and order constraints
 * @param rscDefaults     {@code rsc_defaults} meta-attributes
 */
public record Cib(String clusterName, List<Nv> clusterOptions, List<Node> nodes, List<Primitive> fencing,
                  List<Clone> clones, List<Group> groups, List<Constraint> constraints, List<Nv> rscDefaults) {
    public Cib {
        Objects.requireNonNull(clusterName, "clusterName");
        clusterOptions = List.copyOf(clusterOptions);
        nodes = List.copyOf(nodes);
        fencing = List.copyOf(fencing);
        clones = List.copyOf(clones);
        groups = List.copyOf(groups);
        constraints = List.copyOf(constraints);
        rscDefaults = List.copyOf(rscDefaults);
    }

    /** A name/value pair ({@code <nvpair>}, or {@code name=value} on a command line). */
    public record Nv(String name, String value) {
        public Nv {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * A cluster node.
     *
     * @param id   corosync {@code nodeid} (1-based, ha.cf order)
     * @param name node name (ha.cf {@code node}, also corosync {@code name} and Pacemaker's uname)
     */
    public record Node(int id, String name) {
    }

    /**
     * An operation ({@code <op>}).
     *
     * @param name     {@code monitor}, {@code start} or {@code stop}
     * @param interval e.g. {@code 10s}; {@code 0s} for start and stop
     * @param timeout  e.g. {@code 20s}
     * @param role     empty, or {@code Promoted}/{@code Unpromoted} for a promotable clone's monitors
     */
    public record Op(String name, String interval, String timeout, Optional<String> role) {
        public Op(String name, String interval, String timeout) {
            this(name, interval, timeout, Optional.empty());
        }
    }

    /**
     * A primitive resource.
     *
     * @param id       XML id
     * @param cls      {@code ocf}, {@code lsb}, {@code systemd} or {@code stonith}
     * @param provider the OCF provider ({@code heartbeat}, {@code linbit}, ...); empty for other classes
     * @param type     the agent, script, unit or STONITH type
     * @param params   instance attributes, in order
     * @param meta     meta-attributes ({@code migration-threshold}, {@code failure-timeout})
     * @param ops      operations
     */
    public record Primitive(String id, String cls, Optional<String> provider, String type, List<Nv> params,
                            List<Nv> meta, List<Op> ops) {
        public Primitive {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(cls, "cls");
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(type, "type");
            params = List.copyOf(params);
            meta = List.copyOf(meta);
            ops = List.copyOf(ops);
        }

        /** {@code class[:provider]:type}, as crm_simulate prints it. */
        public String agent() {
            return cls + provider.map(p -> ":" + p).orElse("") + ":" + type;
        }
    }

    /**
     * A group: members start in order and run together.
     *
     * @param id            XML id
     * @param members       at least one primitive, in start order
     * @param preferredNode the node of its haresources line
     * @param line          1-based haresources line
     * @param meta          the group's meta-attributes (its members inherit them); empty unless
     *                      {@link Cib#withGroupsUnmanaged()}
     */
    public record Group(String id, List<Primitive> members, String preferredNode, int line, List<Nv> meta) {
        public Group {
            members = List.copyOf(members);
            meta = List.copyOf(meta);
            if (members.isEmpty()) {
                throw new IllegalArgumentException("a group needs a member");
            }
        }

        /** A group without meta-attributes. */
        public Group(String id, List<Primitive> members, String preferredNode, int line) {
            this(id, members, preferredNode, line, List.of());
        }
    }

    /** The meta-attribute that keeps a group out of Pacemaker's hands: probed, never started or stopped. */
    public static final Nv UNMANAGED = new Nv("is-managed", "false");

    /**
     * The same CIB with every group {@code is-managed=false} (Pacemaker Explained 2.1, "Resource Meta-Attributes"):
     * loaded into a cluster started beside a running jheartbeat pair, Pacemaker probes each group on both nodes and
     * records where it runs, but starts, stops and recovers none, so jheartbeat can give the groups up one at a time
     * (docs/migrate-to-pacemaker.md). Only groups: STONITH devices and clones (ping, DRBD) stay managed, so fencing
     * works during the move. A group's members inherit the group's value.
     */
    public Cib withGroupsUnmanaged() {
        List<Group> g = groups.stream().map(x -> {
            List<Nv> meta = new java.util.ArrayList<>(x.meta().stream().filter(nv -> !nv.name().equals(UNMANAGED.name()))
                    .toList());
            meta.add(UNMANAGED);
            return new Group(x.id(), x.members(), x.preferredNode(), x.line(), meta);
        }).toList();
        return new Cib(clusterName, clusterOptions, nodes, fencing, clones, g, constraints, rscDefaults);
    }

    /**
     * A clone of one primitive.
     *
     * @param id        XML id
     * @param primitive the cloned primitive
     * @param meta      clone meta-attributes ({@code promotable}, {@code notify}, ...)
     */
    public record Clone(String id, Primitive primitive, List<Nv> meta) {
        public Clone {
            meta = List.copyOf(meta);
        }

        /** Whether it is a promotable clone (Pacemaker 2: {@code promotable=true}). */
        public boolean promotable() {
            return meta.contains(new Nv("promotable", "true"));
        }
    }

    /** A constraint. */
    public sealed interface Constraint permits Location, LocationRule, Colocation, Order {
        /** @return its XML id */
        String id();
    }

    /**
     * {@code rsc_location} with a node and a score.
     *
     * @param role  empty, or {@code Promoted} to prefer where a promotable clone is promoted
     */
    public record Location(String id, String rsc, String node, String score, Optional<String> role)
            implements Constraint {
    }

    /**
     * {@code rsc_location} with one rule whose score is taken from a node attribute
     * ({@code score-attribute}) where that attribute is defined.
     */
    public record LocationRule(String id, String rsc, String scoreAttribute) implements Constraint {
    }

    /** {@code rsc_colocation}: {@code rsc} runs where {@code withRsc} runs in {@code withRole}. */
    public record Colocation(String id, String rsc, String withRsc, Optional<String> withRole, String score)
            implements Constraint {
    }

    /** {@code rsc_order} (Mandatory): {@code firstAction} of {@code first} before {@code thenAction} of {@code then}. */
    public record Order(String id, String first, String firstAction, String then, String thenAction)
            implements Constraint {
    }
}
