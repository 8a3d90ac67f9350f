package org.jheartbeat.export;

import java.util.List;
import java.util.stream.Collectors;
import org.jheartbeat.export.Cib.Clone;
import org.jheartbeat.export.Cib.Colocation;
import org.jheartbeat.export.Cib.Constraint;
import org.jheartbeat.export.Cib.Group;
import org.jheartbeat.export.Cib.Location;
import org.jheartbeat.export.Cib.LocationRule;
import org.jheartbeat.export.Cib.Nv;
import org.jheartbeat.export.Cib.Op;
import org.jheartbeat.export.Cib.Order;
import org.jheartbeat.export.Cib.Primitive;

/**
 * Renders a {@link Cib} as a {@code pcs} 0.11 shell script (working on a CIB file with {@code -f},
 * pushed at the end) or as a {@code crm configure} 4.x script, the two shells Debian 12 packages.
 * Pure. The CIB XML is what the export verifies with {@code crm_verify}; these scripts express the
 * same configuration in the shells' syntax (pcs(8) and crmsh's "configure" reference).
 */
public final class CommandScripts {
    /**
     * pcs 0.11 adds the agent's advised start/stop/reload operations to every resource it creates
     * unless told not to (pcs(8), resource create); the CIB and the crmsh script hold exactly the
     * operations the export derived, so the pcs script does too.
     */
    private static final String NO_DEFAULT_OPS = " --no-default-ops";

    private CommandScripts() {
    }

    /** @return a {@code sh} script of pcs commands */
    public static String pcs(Cib cib) {
        StringBuilder b = new StringBuilder();
        b.append("#!/bin/sh\n# pcs commands exported by 'hb export pacemaker' (same configuration as cib.xml).\n")
                .append("# Run on one node once the cluster is up (pcs cluster setup / start): it edits a copy of the CIB\n")
                .append("# (pcs cluster cib) and pushes it at the end (pcs cluster cib-push --config).\n")
                .append("# Offline: CIB_FILE=/path/to/cib.xml sh pcs.sh edits that CIB file in place instead (no cluster\n")
                .append("# needed; start from 'cibadmin --empty' with the nodes declared). On a machine where the\n")
                .append("# resource agents are not installed, PCS_FORCE=--force lets pcs accept them unchecked.\nset -e\n")
                .append("if [ -n \"${CIB_FILE:-}\" ]; then\n  f=$CIB_FILE\nelse\n  f=$(mktemp)\n  pcs cluster cib \"$f\"\nfi\n");
        for (Nv o : cib.clusterOptions()) {
            b.append("pcs -f \"$f\" property set ").append(q(o.name() + "=" + o.value())).append('\n');
        }
        for (Nv d : cib.rscDefaults()) {
            b.append("pcs -f \"$f\" resource defaults update ").append(q(d.name() + "=" + d.value())).append('\n');
        }
        for (Primitive p : cib.fencing()) {
            b.append("pcs -f \"$f\" ${PCS_FORCE:-} stonith create ").append(q(p.id())).append(' ').append(q(p.type())).append(params(p))
                    .append(ops(p)).append('\n');
        }
        for (Clone c : cib.clones()) {
            Primitive p = c.primitive();
            b.append("pcs -f \"$f\" ${PCS_FORCE:-} resource create ").append(q(p.id())).append(' ').append(q(p.agent())).append(params(p))
                    .append(ops(p)).append(NO_DEFAULT_OPS).append(meta(p.meta()));
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
                b.append("pcs -f \"$f\" ${PCS_FORCE:-} resource create ").append(q(p.id())).append(' ').append(q(p.agent()))
                        .append(params(p)).append(ops(p)).append(meta(p.meta())).append(NO_DEFAULT_OPS).append(" --group ").append(q(g.id()))
                        .append('\n');
            }
            if (!g.meta().isEmpty()) {
                b.append("pcs -f \"$f\" resource meta ").append(q(g.id())).append(g.meta().stream()
                        .map(nv -> " " + q(nv.name() + "=" + nv.value())).collect(Collectors.joining())).append('\n');
            }
        }
        for (Constraint c : cib.constraints()) {
            b.append("pcs -f \"$f\" constraint ");
            if (c instanceof Location l) {
                if (l.score().equals("-INFINITY")) {
                    b.append("location ").append(q(l.rsc())).append(" avoids ").append(q(l.node()));
                } else if (l.role().isPresent()) {
                    b.append("location ").append(q(l.rsc())).append(" rule ").append(q("role=" + l.role().get()))
                            .append(' ').append(q("score=" + l.score())).append(" '#uname' eq ").append(q(l.node()));
                } else {
                    b.append("location ").append(q(l.rsc())).append(" prefers ").append(q(l.node() + "=" + l.score()));
                }
            } else if (c instanceof LocationRule r) {
                b.append("location ").append(q(r.rsc())).append(" rule ").append(q("score-attribute=" + r.scoreAttribute()))
                        .append(" defined ").append(q(r.scoreAttribute()));
            } else if (c instanceof Colocation co) {
                b.append("colocation add ").append(q(co.rsc())).append(" with ")
                        .append(co.withRole().map(r -> q(r) + " ").orElse("")).append(q(co.withRsc())).append(' ')
                        .append(q(co.score()));
            } else if (c instanceof Order o) {
                b.append("order ").append(q(o.firstAction())).append(' ').append(q(o.first())).append(" then ")
                        .append(q(o.thenAction())).append(' ').append(q(o.then()));
            }
            b.append('\n');
        }
        b.append("if [ -z \"${CIB_FILE:-}\" ]; then\n  pcs cluster cib-push \"$f\" --config\n  rm -f \"$f\"\nfi\n");
        return b.toString();
    }

    /**
     * @return a {@code crm configure} script (load with {@code crm configure load update FILE})
     * @throws ExportException when a node name, agent or parameter cannot be written so that crmsh reads it
     *                         back as the same single word ({@link #check})
     */
    public static String crmsh(Cib cib) throws ExportException {
        check(cib);
        StringBuilder b = new StringBuilder();
        b.append("# crm configure script exported by 'hb export pacemaker' (same configuration as cib.xml).\n")
                .append("# Load with: crm configure load update crm.txt\n")
                .append("# Offline: CIB_file=/path/to/cib.xml crm configure load update crm.txt edits that CIB file (no\n")
                .append("# cluster needed); crm -F ... commits even where the resource agents are not installed.\n");
        if (!cib.clusterOptions().isEmpty()) {
            // one line: crmsh 4.4 takes each "property" line for a new cib-bootstrap-options set
            // and refuses the second one ("Duplicate resource: cib-bootstrap-options")
            b.append("property ").append(cib.clusterOptions().stream().map(o -> q(o.name() + "=" + o.value()))
                    .collect(Collectors.joining(" "))).append('\n');
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
                    .append(g.members().stream().map(Primitive::id).collect(Collectors.joining(" ")))
                    .append(meta(g.meta())).append('\n');
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
            b.append(" op ").append(q(op.name())).append(' ').append(q("interval=" + op.interval())).append(' ')
                    .append(q("timeout=" + op.timeout())).append(op.role().map(r -> " " + q("role=" + r)).orElse(""));
        }
        return b.toString();
    }

    /** Letters, digits and the punctuation of host names and agent names: crmsh reads these as one word. */
    private static final java.util.regex.Pattern CRM_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_.:/@+-]+");

    /**
     * Refuses what crm.txt cannot hold safely. crmsh splits a line with Python's shlex and then parses
     * names by position, so a node or agent name is written bare and must be a plain name; a
     * parameter is written quoted ({@link #q}), which shlex undoes, but crmsh reads the file line by
     * line, so a control character (a line break) in a value would start a new command.
     */
    static void check(Cib cib) throws ExportException {
        List<Primitive> all = new java.util.ArrayList<>(cib.fencing());
        cib.clones().forEach(c -> all.add(c.primitive()));
        cib.groups().forEach(g -> all.addAll(g.members()));
        for (Primitive p : all) {
            name("agent of " + p.id(), p.agent());
            for (Nv nv : p.params()) {
                value("parameter " + nv.name() + " of " + p.id(), nv.name() + "=" + nv.value());
            }
            for (Nv nv : p.meta()) {
                value("meta attribute " + nv.name() + " of " + p.id(), nv.name() + "=" + nv.value());
            }
        }
        for (Constraint c : cib.constraints()) {
            if (c instanceof Location l) {
                name("node name", l.node());
            }
        }
    }

    private static void name(String what, String s) throws ExportException {
        if (!CRM_NAME.matcher(s).matches()) {
            throw new ExportException("crm.txt cannot hold the " + what + " [" + s + "]: crmsh takes only letters,"
                    + " digits and _ . : / @ + - there; rename it, or export with --format pcs or cib");
        }
    }

    private static void value(String what, String s) throws ExportException {
        if (s.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw new ExportException("crm.txt cannot hold the " + what + ": it contains a control character (a"
                    + " line break would start a new crmsh command); remove it, or export with --format pcs or cib");
        }
    }

    /** Shell-quotes a word when it holds anything but safe characters. */
    static String q(String s) {
        if (s.matches("[A-Za-z0-9_.,:/=@%+-]+")) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
