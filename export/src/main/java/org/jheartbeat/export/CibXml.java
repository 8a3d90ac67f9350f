package org.jheartbeat.export;

import java.util.List;
import java.util.Set;
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
 * Renders a {@link Cib} as Pacemaker 2.1 CIB XML (schema {@code pacemaker-3.9}, feature set 3.16.1:
 * Debian 12's Pacemaker 2.1.5, whose {@code crm_simulate} refuses a newer feature set). Pure.
 *
 * <p>The file written for the user has an empty {@code <status/>}: the cluster fills it. For the
 * checks, {@link #render(Cib, Scenario)} adds a status section in which the given nodes are online
 * members (and the others cleanly down), with {@code have-quorum="1"}, so that {@code crm_verify}
 * has no "unclean node" warnings and {@code crm_simulate} places the resources (agents-pacemaker
 * facts F.4).
 */
public final class CibXml {
    /** The CIB feature set of Debian 12's Pacemaker 2.1.5. */
    public static final String FEATURE_SET = "3.16.1";
    /** The newest schema Pacemaker 2.1.5 ships. */
    public static final String SCHEMA = "pacemaker-3.9";

    private CibXml() {
    }

    /**
     * A cluster state to check the configuration against.
     *
     * @param name       e.g. {@code both nodes online}
     * @param online     the nodes up (members); every other node is cleanly down
     * @param attributes transient node attributes set on each online node (e.g. DRBD promotion scores)
     */
    public record Scenario(String name, Set<String> online, List<Nv> attributes) {
        public Scenario {
            online = Set.copyOf(online);
            attributes = List.copyOf(attributes);
        }
    }

    /** The CIB to load into a new cluster: configuration, empty status. */
    public static String render(Cib cib) {
        return render(cib, null);
    }

    /**
     * @param cib      the configuration
     * @param scenario a status to add, or {@code null} for an empty {@code <status/>}
     * @return the whole CIB document
     */
    public static String render(Cib cib, Scenario scenario) {
        StringBuilder b = new StringBuilder();
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append("<cib crm_feature_set=\"").append(FEATURE_SET).append("\" validate-with=\"").append(SCHEMA)
                .append("\" epoch=\"1\" num_updates=\"0\" admin_epoch=\"1\"");
        if (scenario != null) {
            String dc = cib.nodes().stream().filter(n -> scenario.online().contains(n.name())).map(n -> "" + n.id())
                    .findFirst().orElse("1");
            b.append(" have-quorum=\"1\" dc-uuid=\"").append(dc).append('"');
        }
        b.append(">\n  <configuration>\n    <crm_config>\n      <cluster_property_set id=\"cib-bootstrap-options\">\n");
        for (Nv nv : cib.clusterOptions()) {
            nvpair(b, "        ", "cib-bootstrap-options-" + nv.name(), nv);
        }
        b.append("      </cluster_property_set>\n    </crm_config>\n    <nodes>\n");
        for (Cib.Node n : cib.nodes()) {
            b.append("      <node id=\"").append(n.id()).append("\" uname=\"").append(esc(n.name())).append("\"/>\n");
        }
        b.append("    </nodes>\n    <resources>\n");
        for (Primitive p : cib.fencing()) {
            primitive(b, "      ", p);
        }
        for (Clone c : cib.clones()) {
            b.append("      <clone id=\"").append(esc(c.id())).append("\">\n");
            meta(b, "        ", c.id() + "-meta_attributes", c.meta());
            primitive(b, "        ", c.primitive());
            b.append("      </clone>\n");
        }
        for (Group g : cib.groups()) {
            b.append("      <group id=\"").append(esc(g.id())).append("\">\n");
            meta(b, "        ", g.id() + "-meta_attributes", g.meta());
            for (Primitive p : g.members()) {
                primitive(b, "        ", p);
            }
            b.append("      </group>\n");
        }
        b.append("    </resources>\n    <constraints>\n");
        for (Constraint c : cib.constraints()) {
            constraint(b, c);
        }
        b.append("    </constraints>\n");
        if (!cib.rscDefaults().isEmpty()) {
            b.append("    <rsc_defaults>\n");
            meta(b, "      ", "rsc-options", cib.rscDefaults());
            b.append("    </rsc_defaults>\n");
        }
        b.append("  </configuration>\n");
        if (scenario == null) {
            b.append("  <status/>\n");
        } else {
            b.append("  <status>\n");
            for (Cib.Node n : cib.nodes()) {
                boolean up = scenario.online().contains(n.name());
                b.append("    <node_state id=\"").append(n.id()).append("\" uname=\"").append(esc(n.name()))
                        .append(up ? "\" in_ccm=\"true\" crmd=\"online\" join=\"member\" expected=\"member\""
                                : "\" in_ccm=\"false\" crmd=\"offline\" join=\"down\" expected=\"down\"");
                if (up && !scenario.attributes().isEmpty()) {
                    String set = "status-" + n.id();
                    b.append(">\n      <transient_attributes id=\"").append(n.id()).append("\">\n")
                            .append("        <instance_attributes id=\"").append(set).append("\">\n");
                    for (Nv nv : scenario.attributes()) {
                        nvpair(b, "          ", set + "-" + nv.name(), nv);
                    }
                    b.append("        </instance_attributes>\n      </transient_attributes>\n    </node_state>\n");
                } else {
                    b.append("/>\n");
                }
            }
            b.append("  </status>\n");
        }
        b.append("</cib>\n");
        return b.toString();
    }

    private static void primitive(StringBuilder b, String in, Primitive p) {
        b.append(in).append("<primitive id=\"").append(esc(p.id())).append("\" class=\"").append(esc(p.cls())).append('"');
        p.provider().ifPresent(pr -> b.append(" provider=\"").append(esc(pr)).append('"'));
        b.append(" type=\"").append(esc(p.type())).append("\"");
        if (p.params().isEmpty() && p.meta().isEmpty() && p.ops().isEmpty()) {
            b.append("/>\n");
            return;
        }
        b.append(">\n");
        String in2 = in + "  ";
        if (!p.params().isEmpty()) {
            String set = p.id() + "-instance_attributes";
            b.append(in2).append("<instance_attributes id=\"").append(esc(set)).append("\">\n");
            for (Nv nv : p.params()) {
                nvpair(b, in2 + "  ", set + "-" + nv.name(), nv);
            }
            b.append(in2).append("</instance_attributes>\n");
        }
        meta(b, in2, p.id() + "-meta_attributes", p.meta());
        if (!p.ops().isEmpty()) {
            b.append(in2).append("<operations>\n");
            for (Op op : p.ops()) {
                b.append(in2).append("  <op id=\"").append(esc(opId(p.id(), op))).append("\" name=\"")
                        .append(esc(op.name())).append("\" interval=\"").append(esc(op.interval()))
                        .append("\" timeout=\"").append(esc(op.timeout())).append('"');
                op.role().ifPresent(r -> b.append(" role=\"").append(esc(r)).append('"'));
                b.append("/>\n");
            }
            b.append(in2).append("</operations>\n");
        }
        b.append(in).append("</primitive>\n");
    }

    /** The id of an operation: {@code <rsc>-<name>-interval-<interval>}, as pcs names them. */
    static String opId(String rsc, Op op) {
        return rsc + "-" + op.name() + "-interval-" + op.interval();
    }

    private static void meta(StringBuilder b, String in, String id, List<Nv> meta) {
        if (meta.isEmpty()) {
            return;
        }
        b.append(in).append("<meta_attributes id=\"").append(esc(id)).append("\">\n");
        for (Nv nv : meta) {
            nvpair(b, in + "  ", id + "-" + nv.name(), nv);
        }
        b.append(in).append("</meta_attributes>\n");
    }

    private static void constraint(StringBuilder b, Constraint c) {
        String in = "      ";
        if (c instanceof Location l) {
            b.append(in).append("<rsc_location id=\"").append(esc(l.id())).append("\" rsc=\"").append(esc(l.rsc()))
                    .append('"');
            l.role().ifPresent(r -> b.append(" role=\"").append(esc(r)).append('"'));
            b.append(" node=\"").append(esc(l.node())).append("\" score=\"").append(esc(l.score())).append("\"/>\n");
        } else if (c instanceof LocationRule r) {
            b.append(in).append("<rsc_location id=\"").append(esc(r.id())).append("\" rsc=\"")
                    .append(esc(r.rsc())).append("\">\n")
                    .append(in).append("  <rule id=\"").append(esc(r.id())).append("-rule\" score-attribute=\"")
                    .append(esc(r.scoreAttribute())).append("\">\n")
                    .append(in).append("    <expression id=\"").append(esc(r.id())).append("-rule-expr\" attribute=\"")
                    .append(esc(r.scoreAttribute())).append("\" operation=\"defined\"/>\n")
                    .append(in).append("  </rule>\n").append(in).append("</rsc_location>\n");
        } else if (c instanceof Colocation co) {
            b.append(in).append("<rsc_colocation id=\"").append(esc(co.id())).append("\" rsc=\"").append(esc(co.rsc()))
                    .append("\" with-rsc=\"").append(esc(co.withRsc())).append('"');
            co.withRole().ifPresent(r -> b.append(" with-rsc-role=\"").append(esc(r)).append('"'));
            b.append(" score=\"").append(esc(co.score())).append("\"/>\n");
        } else if (c instanceof Order o) {
            b.append(in).append("<rsc_order id=\"").append(esc(o.id())).append("\" first=\"")
                    .append(esc(o.first())).append("\" first-action=\"").append(esc(o.firstAction()))
                    .append("\" then=\"").append(esc(o.then())).append("\" then-action=\"").append(esc(o.thenAction()))
                    .append("\" kind=\"Mandatory\"/>\n");
        }
    }

    private static void nvpair(StringBuilder b, String in, String id, Nv nv) {
        b.append(in).append("<nvpair id=\"").append(esc(Ids.sanitize(id))).append("\" name=\"").append(esc(nv.name()))
                .append("\" value=\"").append(esc(nv.value())).append("\"/>\n");
    }

    /** XML attribute escaping. */
    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }
}
