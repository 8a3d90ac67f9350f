package org.jheartbeat.cli.export;

import java.util.List;
import java.util.stream.Collectors;
import org.jheartbeat.cli.export.Cib.Clone;
import org.jheartbeat.cli.export.Cib.Colocation;
import org.jheartbeat.cli.export.Cib.Constraint;
import org.jheartbeat.cli.export.Cib.Group;
import org.jheartbeat.cli.export.Cib.Location;
import org.jheartbeat.cli.export.Cib.LocationRule;
import org.jheartbeat.cli.export.Cib.Nv;
import org.jheartbeat.cli.export.Cib.Op;
import org.jheartbeat.cli.export.Cib.Order;
import org.jheartbeat.cli.export.Cib.Primitive;

/**
 * Renders a {@link Cib} as a {@code pcs} 0.11 shell script (working on a CIB file with {@code -f},
 * pushed at the end) or as a {@code crm configure} 4.x script, the two shells Debian 12 packages.
 * Pure. The CIB XML is what the export verifies with {@code crm_verify}; these scripts express the
 * same configuration in the shells' syntax (pcs(8) and crmsh's "configure" reference).
 */
public final class CommandScripts {
    private CommandScripts() {
    }

    /** @return a {@code sh} script of pcs commands */
    public static String pcs(Cib cib) {
        StringBuilder b = new StringBuilder();
        b.append("#!/bin/sh\n# pcs commands exported by 'hb export pacemaker' (same configuration as cib.xml).\n")
                .append("# Run on one node once the cluster is up (pcs cluster setup / start).\nset -e\n")
                .append("f=$(mktemp)\npcs cluster cib \"$f\"\n");
        for (Nv o : cib.clusterOptions()) {
            b.append("pcs -f \"$f\" property set ").append(q(o.name() + "=" + o.value())).append('\n');
        }
        for (Nv d : cib.rscDefaults()) {
            b.append("pcs -f \"$f\" resource defaults update ").append(q(d.name() + "=" + d.value())).append('\n');
        }
        for (Primitive p : cib.fencing()) {
            b.append("pcs -f \"$f\" stonith create ").append(p.id()).append(' ').append(p.type()).append(params(p))
                    .append(ops(p)).append('\n');
        }
        for (Clone c : cib.clones()) {
            Primitive p = c.primitive();
            b.append("pcs -f \"$f\" resource create ").append(p.id()).append(' ').append(p.agent()).append(params(p))
                    .append(ops(p)).append(meta(p.meta()));
            if (c.promotable()) {
                b.append(" promotable");
            } else {
                b.append(" clone");
            }
            for (Nv nv : c.meta()) {
                if (!nv.name().equals("promotable")) {
                    b.append(' ').append(q(nv.name() + "=" + nv.value()));
                }
            }
            b.append('\n');
        }
        for (Group g : cib.groups()) {
            for (Primitive p : g.members()) {
                b.append("pcs -f \"$f\" resource create ").append(p.id()).append(' ').append(p.agent())
                        .append(params(p)).append(ops(p)).append(meta(p.meta())).append(" --group ").append(g.id())
                        .append('\n');
            }
        }
        for (Constraint c : cib.constraints()) {
            b.append("pcs -f \"$f\" constraint ");
            if (c instanceof Location l) {
                if (l.score().equals("-INFINITY")) {
                    b.append("location ").append(l.rsc()).append(" avoids ").append(l.node());
                } else if (l.role().isPresent()) {
                    b.append("location ").append(l.rsc()).append(" rule role=").append(l.role().get()).append(" score=")
                            .append(l.score()).append(" '#uname' eq ").append(l.node());
                } else {
                    b.append("location ").append(l.rsc()).append(" prefers ").append(l.node()).append('=').append(l.score());
                }
            } else if (c instanceof LocationRule r) {
                b.append("location ").append(r.rsc()).append(" rule score-attribute=").append(r.scoreAttribute())
                        .append(" defined ").append(r.scoreAttribute());
            } else if (c instanceof Colocation co) {
                b.append("colocation add ").append(co.rsc()).append(" with ")
                        .append(co.withRole().map(r -> r + " ").orElse("")).append(co.withRsc()).append(' ')
                        .append(co.score());
            } else if (c instanceof Order o) {
                b.append("order ").append(o.firstAction()).append(' ').append(o.first()).append(" then ")
                        .append(o.thenAction()).append(' ').append(o.then());
            }
            b.append('\n');
        }
        b.append("pcs cluster cib-push \"$f\" --config\nrm -f \"$f\"\n");
        return b.toString();
    }

    /** @return a {@code crm configure} script (load with {@code crm configure load update FILE}) */
    public static String crmsh(Cib cib) {
        StringBuilder b = new StringBuilder();
        b.append("# crm configure script exported by 'hb export pacemaker' (same configuration as cib.xml).\n")
                .append("# Load with: crm configure load update crm.txt\n");
        for (Nv o : cib.clusterOptions()) {
            b.append("property ").append(q(o.name() + "=" + o.value())).append('\n');
        }
        if (!cib.rscDefaults().isEmpty()) {
            b.append("rsc_defaults ").append(cib.rscDefaults().stream().map(d -> q(d.name() + "=" + d.value()))
                    .collect(Collectors.joining(" "))).append('\n');
        }
        for (Primitive p : cib.fencing()) {
            crmPrimitive(b, p);
        }
        for (Clone c : cib.clones()) {
            crmPrimitive(b, c.primitive());
            b.append("clone ").append(c.id()).append(' ').append(c.primitive().id());
            if (!c.meta().isEmpty()) {
                b.append(" meta ").append(c.meta().stream().map(nv -> q(nv.name() + "=" + nv.value()))
                        .collect(Collectors.joining(" ")));
            }
            b.append('\n');
        }
        for (Group g : cib.groups()) {
            for (Primitive p : g.members()) {
                crmPrimitive(b, p);
            }
            b.append("group ").append(g.id()).append(' ')
                    .append(g.members().stream().map(Primitive::id).collect(Collectors.joining(" "))).append('\n');
        }
        for (Constraint c : cib.constraints()) {
            if (c instanceof Location l) {
                b.append("location ").append(l.id()).append(' ').append(l.rsc())
                        .append(l.role().map(r -> " role=" + r).orElse("")).append(' ').append(l.score()).append(": ")
                        .append(l.node()).append('\n');
            } else if (c instanceof LocationRule r) {
                b.append("location ").append(r.id()).append(' ').append(r.rsc()).append(" rule ")
                        .append(r.scoreAttribute()).append(": defined ").append(r.scoreAttribute()).append('\n');
            } else if (c instanceof Colocation co) {
                b.append("colocation ").append(co.id()).append(' ').append(co.score().equals("INFINITY") ? "inf" : co.score())
                        .append(": ").append(co.rsc()).append(' ').append(co.withRsc())
                        .append(co.withRole().map(r -> ":" + r).orElse("")).append('\n');
            } else if (c instanceof Order o) {
                b.append("order ").append(o.id()).append(" Mandatory: ").append(o.first()).append(':')
                        .append(o.firstAction()).append(' ').append(o.then()).append(':').append(o.thenAction()).append('\n');
            }
        }
        return b.toString();
    }

    private static void crmPrimitive(StringBuilder b, Primitive p) {
        b.append("primitive ").append(p.id()).append(' ').append(p.agent());
        if (!p.params().isEmpty()) {
            b.append(" \\\n    params ").append(p.params().stream().map(nv -> q(nv.name() + "=" + nv.value()))
                    .collect(Collectors.joining(" ")));
        }
        if (!p.meta().isEmpty()) {
            b.append(" \\\n    meta ").append(p.meta().stream().map(nv -> q(nv.name() + "=" + nv.value()))
                    .collect(Collectors.joining(" ")));
        }
        for (Op op : p.ops()) {
            b.append(" \\\n    op ").append(op.name()).append(" interval=").append(op.interval()).append(" timeout=")
                    .append(op.timeout()).append(op.role().map(r -> " role=" + r).orElse(""));
        }
        b.append('\n');
    }

    private static String params(Primitive p) {
        return p.params().isEmpty() ? "" : " " + p.params().stream().map(nv -> q(nv.name() + "=" + nv.value()))
                .collect(Collectors.joining(" "));
    }

    private static String meta(List<Nv> meta) {
        return meta.isEmpty() ? "" : " meta " + meta.stream().map(nv -> q(nv.name() + "=" + nv.value()))
                .collect(Collectors.joining(" "));
    }

    private static String ops(Primitive p) {
        StringBuilder b = new StringBuilder();
        for (Op op : p.ops()) {
            b.append(" op ").append(op.name()).append(" interval=").append(op.interval()).append(" timeout=")
                    .append(op.timeout()).append(op.role().map(r -> " role=" + r).orElse(""));
        }
        return b.toString();
    }

    /** Shell-quotes a word when it holds anything but safe characters. */
    static String q(String s) {
        if (s.matches("[A-Za-z0-9_.,:/=@%+-]+")) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
