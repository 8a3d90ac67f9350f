package org.jheartbeat.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.export.Cib.Clone;
import org.jheartbeat.export.Cib.Group;
import org.jheartbeat.export.Cib.Nv;
import org.jheartbeat.export.Cib.Primitive;
import org.jheartbeat.export.CibXml.Scenario;

/**
 * The placement an export must produce, and how to read it from {@code crm_simulate -S} (Pacemaker
 * 2.1.5's text output: the {@code Revised Cluster Status:} section lists each resource as
 * {@code * ID<TAB>(class:provider:type):<TAB> Started NODE}; agents-pacemaker facts F.4). Pure.
 *
 * <p>Scenarios: both nodes online, each group on its haresources node; then each node offline in
 * turn, every group on the survivor. DRBD clones get the promotion score the {@code linbit:drbd}
 * agent sets on an UpToDate disk ({@code master-<id>}, here 10000) on every online node, since the
 * simulation runs no agent.
 */
public final class Placement {
    private static final Pattern RESOURCE = Pattern.compile("^\\s*\\*\\s+(\\S+)\\s+\\(([^)]*)\\):\\s+(\\S+)(?:\\s+(\\S+))?");

    private Placement() {
    }

    /**
     * One scenario and where every group must run in it.
     *
     * @param scenario the cluster state
     * @param expected group id to node
     */
    public record Expectation(Scenario scenario, Map<String, String> expected) {
        public Expectation {
            expected = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(expected));
        }
    }

    /** @return the scenarios to check {@code cib} against: all online, then each node offline */
    public static List<Expectation> expectations(Cib cib) {
        List<Nv> attrs = new ArrayList<>();
        for (Clone c : cib.clones()) {
            if (c.promotable()) {
                attrs.add(new Nv("master-" + c.primitive().id(), "10000"));
            }
        }
        Set<String> all = new LinkedHashSet<>();
        cib.nodes().forEach(n -> all.add(n.name()));
        List<Expectation> out = new ArrayList<>();
        Map<String, String> home = new LinkedHashMap<>();
        for (Group g : cib.groups()) {
            home.put(g.id(), g.preferredNode());
        }
        out.add(new Expectation(new Scenario("both nodes online", all, attrs), home));
        if (all.size() == 2) {
            for (String down : all) {
                Set<String> up = new LinkedHashSet<>(all);
                up.remove(down);
                String survivor = up.iterator().next();
                Map<String, String> m = new LinkedHashMap<>();
                for (Group g : cib.groups()) {
                    m.put(g.id(), survivor);
                }
                out.add(new Expectation(new Scenario(down + " offline", up, attrs), m));
            }
        }
        return out;
    }

    /**
     * @param simulateOutput what {@code crm_simulate -S} printed
     * @return resource id to the node it is {@code Started} on after the transition
     */
    public static Map<String, String> started(String simulateOutput) {
        Map<String, String> out = new LinkedHashMap<>();
        int at = simulateOutput.indexOf("Revised Cluster Status:");
        if (at < 0) {
            return out;
        }
        for (String line : simulateOutput.substring(at).split("\n")) {
            Matcher m = RESOURCE.matcher(line);
            if (m.find() && m.group(3).equals("Started") && m.group(4) != null) {
                out.put(m.group(1), m.group(4));
            }
        }
        return out;
    }

    /**
     * @return one line per group member not started where {@code e} wants it, e.g.
     *         {@code grp-ip-198.18.0.100: ip-198.18.0.100 is Stopped, expected on node1}
     */
    public static List<String> mismatches(Cib cib, Expectation e, Map<String, String> started) {
        List<String> out = new ArrayList<>();
        for (Group g : cib.groups()) {
            String want = e.expected().get(g.id());
            for (Primitive p : g.members()) {
                String got = started.get(p.id());
                if (!want.equals(got)) {
                    out.add(g.id() + ": " + p.id() + " is " + (got == null ? "not started" : "on " + got)
                            + ", expected on " + want);
                }
            }
        }
        return out;
    }
}
