package org.jheartbeat.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.jheartbeat.export.Cib.Group;
import org.jheartbeat.export.ExportFixtures.Fixture;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The {@code --format pcs} and {@code --format crmsh} scripts run by the real shells of Debian 12
 * (pcs 0.11.5, crmsh 4.4.1; scripts/setup.sh installs them) offline, each against its own CIB file
 * made by {@code cibadmin --empty} with the two nodes declared: {@code CIB_FILE=f PCS_FORCE=--force
 * sh pcs.sh} and {@code CIB_file=f crm -F configure load update crm.txt} (the resource agents of the
 * fixtures are not installed here, hence the force options). Then {@code crm_verify --xml-file}
 * accepts the result with no message, and the result holds the same configuration as
 * {@link CibXml#render(Cib)} (the exported cib.xml), compared after parsing: primitives (agent,
 * instance attributes, meta attributes, operations), groups (members in order), clones, constraints
 * and the cluster properties and resource defaults; the ids of nvpairs, attribute sets, operations
 * and constraints are the shells' own and not compared.
 *
 * <p>CI time: each pcs call takes about a second (several on a loaded machine) and a crm load a few
 * seconds, so CI runs crmsh on every fixture and pcs on the STONITH + fence delay and the ping
 * fixtures (together ~20 s); the pcs run of every fixture (~1 min) needs {@code -Djhb.drills=true}. Skipped when pcs or crm is absent.
 */
class PacemakerScriptsIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path tmp;

    static Stream<Fixture> fixtures() throws Exception {
        return ExportFixtures.all().stream();
    }

    static Stream<Fixture> pcsFixtures() throws Exception {
        boolean all = Boolean.getBoolean("jhb.drills");
        // CI: two groups with STONITH devices and the fencing delay; the ping clone and its rules
        return ExportFixtures.all().stream().filter(f -> all || f.name().contains("fence_delay")
                || f.name().contains("ping"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void crmScriptBuildsTheExportedCib(Fixture f) throws Exception {
        assumeTrue(PacemakerCheck.find("crm").isPresent(), "crm (crmsh) is not installed (scripts/setup.sh)");
        ExportResult r = f.export(Files.createDirectories(tmp.resolve("cfg")));
        Path cib = emptyCib(r.cib());
        Path script = tmp.resolve("crm.txt");
        Files.writeString(script, CommandScripts.crmsh(r.cib()), StandardCharsets.UTF_8);
        long t0 = System.nanoTime();
        ProcessResult p = new OsProcessRunner().run(new ProcessSpec(List.of("crm", "-F", "configure", "load",
                "update", script.toString()), Map.of("CIB_file", cib.toString()), TIMEOUT));
        assertThat(p.exitCode()).as("crm configure load update:%n%s%n%s", p.stdout(), p.stderr()).isZero();
        // -F commits despite errors: the same allowance as for pcs below (agents not installed
        // here, the Filesystem line without fstype), and crm_verify's own run on a CIB without status
        List<String> messages = (p.stdout() + "\n" + p.stderr()).lines().map(l -> l.replaceAll("\u001b\\[[0-9;]*m", ""))
                .filter(l -> l.matches("(ERROR|WARNING): .*")
                        && !l.matches("ERROR: [a-z]+:[^:]+(:[^:]+)?: (got no meta-data, does this RA exist\\?|no such resource agent)")
                        && !l.matches("ERROR: [^:]+: required parameter \"fstype\" not defined")
                        && !l.contains("(cluster_status)") && !l.contains("(unpack_config)")).toList();
        assertThat(messages).as("crm's errors and warnings (%s)", f.name()).isEmpty();
        assertSameConfiguration(f, cib, r.cib(), "crm", t0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pcsFixtures")
    void pcsScriptBuildsTheExportedCib(Fixture f) throws Exception {
        assumeTrue(PacemakerCheck.find("pcs").isPresent(), "pcs is not installed (scripts/setup.sh)");
        ExportResult r = f.export(Files.createDirectories(tmp.resolve("cfg")));
        Path cib = emptyCib(r.cib());
        Path script = tmp.resolve("pcs.sh");
        Files.writeString(script, CommandScripts.pcs(r.cib()), StandardCharsets.UTF_8);
        long t0 = System.nanoTime();
        ProcessResult p = new OsProcessRunner().run(new ProcessSpec(List.of("sh", script.toString()),
                Map.of("CIB_FILE", cib.toString(), "PCS_FORCE", "--force"), TIMEOUT));
        assertThat(p.exitCode()).as("sh pcs.sh:%n%s%n%s", p.stdout(), p.stderr()).isZero();
        // PCS_FORCE turns pcs's refusals into warnings. Allowed: an agent not installed here (and so
        // its operation names unknown), the node check -f skips, and the fstype a Filesystem line
        // without one lacks (the export warns about it: the admin adds it); an unknown or missing
        // option of an installed agent (IPaddr2, ping, drbd, apcsmart...) would show up here.
        List<String> warnings = (p.stdout() + "\n" + p.stderr()).lines().filter(l -> l.startsWith("Warning:")
                && !l.matches("Warning: Agent '[^']+' is not installed or does not provide valid metadata.*")
                && !l.matches("Warning: '[a-z-]+' is not a valid operation name value.*")
                && !l.startsWith("Warning: Validation for node existence in the cluster will be skipped")
                && !l.startsWith("Warning: required resource option 'fstype' is missing")
                && !l.startsWith("Warning: Defaults do not apply to resources which override them")).toList();
        assertThat(warnings).as("pcs warnings (%s)", f.name()).isEmpty();
        assertSameConfiguration(f, cib, r.cib(), "pcs", t0);
    }

    /** The comparison itself, no tool: ids do not count, everything else does. */
    @org.junit.jupiter.api.Test
    void theComparisonIgnoresIdsAndSeesEveryOtherChange() throws Exception {
        ExportResult r = ExportFixtures.all().stream().filter(f -> f.name().equals("field forms")).findFirst()
                .orElseThrow().export(Files.createDirectories(tmp.resolve("cfg")));
        String xml = CibXml.render(r.cib());
        Map<String, String> base = summary(parse(xml));
        assertThat(base).containsKeys("property stonith-enabled", "rsc_defaults resource-stickiness");
        assertThat(summary(parse(xml.replaceAll("<(nvpair|op|meta_attributes|instance_attributes|rsc_location|"
                + "rsc_order|rsc_colocation|rule|expression|cluster_property_set) id=\"([^\"]*)\"",
                "<$1 id=\"other-$2\"")))).isEqualTo(base);
        List<String> changes = List.of("score=\"100\"", "score=\"INFINITY\"", "timeout=\"20s\"",
                "first-action=\"promote\"", "name=\"cidr_netmask\"", "value=\"ext4\"");
        for (String c : changes) {
            assertThat(xml).contains(c);
            assertThat(summary(parse(xml.replaceFirst(java.util.regex.Pattern.quote(c), c.replaceFirst("=\"", "=\"x")))))
                    .as(c).isNotEqualTo(base);
        }
        Group g = r.cib().groups().stream().filter(x -> x.members().size() > 2).findFirst().orElseThrow();
        String a = "<primitive id=\"" + g.members().get(0).id() + "\"";
        String b = "<primitive id=\"" + g.members().get(1).id() + "\"";
        assertThat(summary(parse(xml.replace(a, "@A@").replace(b, a).replace("@A@", b)))).as("member order")
                .isNotEqualTo(base);
    }

    /** An empty CIB (cibadmin --empty) with the export's nodes declared as cib.xml declares them. */
    private Path emptyCib(Cib cib) throws Exception {
        assumeTrue(PacemakerCheck.find("cibadmin").isPresent(), "cibadmin is not installed (pacemaker-cli-utils)");
        OsProcessRunner runner = new OsProcessRunner();
        ProcessResult e = runner.run(ProcessSpec.of(TIMEOUT, "cibadmin", "--empty"));
        assertThat(e.exitCode()).as("cibadmin --empty: %s", e.stderr()).isZero();
        Path file = tmp.resolve("built.xml");
        Files.writeString(file, e.stdout(), StandardCharsets.UTF_8);
        Element nodes = (Element) parse(CibXml.render(cib)).getElementsByTagName("nodes").item(0);
        for (Element n : children(nodes, "node")) {
            String xml = "<node id=\"" + n.getAttribute("id") + "\" uname=\"" + n.getAttribute("uname") + "\"/>";
            ProcessResult c = runner.run(new ProcessSpec(List.of("cibadmin", "-C", "-o", "nodes", "-X", xml),
                    Map.of("CIB_file", file.toString()), TIMEOUT));
            assertThat(c.exitCode()).as("cibadmin -C %s: %s", xml, c.stderr()).isZero();
        }
        return file;
    }

    private void assertSameConfiguration(Fixture f, Path built, Cib cib, String tool, long t0) throws Exception {
        double secs = (System.nanoTime() - t0) / 1e9;
        Path withStatus = withStatus(built, cib);
        ProcessResult v = new OsProcessRunner().run(ProcessSpec.of(TIMEOUT, "crm_verify", "-V", "--xml-file",
                withStatus.toString()));
        assertThat(v.exitCode()).as("crm_verify on %s's CIB: %s%s", tool, v.stdout(), v.stderr()).isZero();
        assertThat((v.stdout() + v.stderr()).strip()).as("crm_verify messages on %s's CIB", tool).isEmpty();
        Map<String, String> want = summary(parse(CibXml.render(cib)));
        Map<String, String> got = summary(parse(Files.readString(built)));
        List<String> diff = new ArrayList<>();
        for (String k : new TreeSet<>(union(want, got))) {
            if (!java.util.Objects.equals(want.get(k), got.get(k))) {
                diff.add(k + ": cib.xml " + want.get(k) + ", " + tool + " " + got.get(k));
            }
        }
        assertThat(diff).as("%s's CIB against cib.xml (%s)", tool, f.name()).isEmpty();
        System.out.printf("%s / %s: %d items as in cib.xml, %.1f s%n", f.name(), tool, want.size(), secs);
    }

    /**
     * The built CIB with the status of the "both nodes online" scenario, as the export's own check
     * verifies cib.xml ({@link PacemakerCheck}): a configuration-only CIB with STONITH enabled makes
     * crm_verify warn that the unseen nodes are unclean and cannot be fenced.
     */
    private Path withStatus(Path built, Cib cib) throws Exception {
        Element doc = parse(Files.readString(built));
        Element scenario = parse(CibXml.render(cib, Placement.expectations(cib).get(0).scenario()));
        doc.setAttribute("have-quorum", scenario.getAttribute("have-quorum"));
        doc.setAttribute("dc-uuid", scenario.getAttribute("dc-uuid"));
        doc.replaceChild(doc.getOwnerDocument().importNode(one(scenario, "status"), true), one(doc, "status"));
        java.io.StringWriter w = new java.io.StringWriter();
        javax.xml.transform.TransformerFactory.newInstance().newTransformer().transform(
                new javax.xml.transform.dom.DOMSource(doc.getOwnerDocument()), new javax.xml.transform.stream.StreamResult(w));
        Path out = tmp.resolve("built-online.xml");
        Files.writeString(out, w.toString(), StandardCharsets.UTF_8);
        return out;
    }

    private static java.util.Set<String> union(Map<String, String> a, Map<String, String> b) {
        java.util.Set<String> s = new TreeSet<>(a.keySet());
        s.addAll(b.keySet());
        return s;
    }

    /**
     * The configuration as flat key/value pairs, ids of anything but resources left out.
     */
    static Map<String, String> summary(Element root) {
        Map<String, String> m = new TreeMap<>();
        Element conf = children(root, "configuration").get(0);
        for (Element set : children(one(conf, "crm_config"), "cluster_property_set")) {
            nvpairs(m, "property ", set);
        }
        Element defaults = one(conf, "rsc_defaults");
        if (defaults != null) {
            for (Element set : children(defaults, "meta_attributes")) {
                nvpairs(m, "rsc_defaults ", set);
            }
        }
        resources(m, one(conf, "resources"));
        for (Element c : children(one(conf, "constraints"), null)) {
            switch (c.getTagName()) {
                case "rsc_location" -> {
                    String role = c.getAttribute("role");
                    if (c.hasAttribute("node")) {
                        m.put("location " + c.getAttribute("rsc") + " " + c.getAttribute("node") + " role=" + role,
                                c.getAttribute("score"));
                    }
                    for (Element rule : children(c, "rule")) {
                        StringBuilder k = new StringBuilder("location " + c.getAttribute("rsc") + " rule role="
                                + (rule.hasAttribute("role") ? rule.getAttribute("role") : role) + " boolean-op="
                                + rule.getAttribute("boolean-op"));
                        for (Element ex : children(rule, "expression")) {
                            k.append(" [").append(ex.getAttribute("attribute")).append(' ')
                                    .append(ex.getAttribute("operation")).append(' ').append(ex.getAttribute("value"))
                                    .append(']');
                        }
                        m.put(k.toString(), rule.hasAttribute("score-attribute")
                                ? "score-attribute=" + rule.getAttribute("score-attribute") : rule.getAttribute("score"));
                    }
                }
                // pcs writes the default role (Started) out, cib.xml and crmsh leave it out
                case "rsc_colocation" -> m.put("colocation " + c.getAttribute("rsc") + " role="
                        + orDefault(c, "rsc-role", "Started") + " with " + c.getAttribute("with-rsc") + " role="
                        + orDefault(c, "with-rsc-role", "Started"), c.getAttribute("score"));
                case "rsc_order" -> m.put("order " + c.getAttribute("first") + " " + orDefault(c, "first-action",
                        "start") + " then " + c.getAttribute("then") + " " + orDefault(c, "then-action",
                        orDefault(c, "first-action", "start")), orDefault(c, "kind", "Mandatory"));
                default -> m.put("constraint " + c.getTagName(), "unknown");
            }
        }
        return m;
    }

    private static void resources(Map<String, String> m, Element parent) {
        int i = 0;
        for (Element r : children(parent, null)) {
            if (!List.of("primitive", "group", "clone", "master", "bundle").contains(r.getTagName())) {
                continue; // the parent's meta_attributes, read by the caller
            }
            String k = r.getTagName() + " " + r.getAttribute("id");
            switch (r.getTagName()) {
                case "primitive" -> {
                    m.put(k, r.getAttribute("class") + ":" + r.getAttribute("provider") + ":" + r.getAttribute("type")
                            + " in " + parentId(parent) + " #" + i);
                    for (Element set : children(r, "instance_attributes")) {
                        nvpairs(m, k + " param ", set);
                    }
                    Element ops = one(r, "operations");
                    if (ops != null) {
                        for (Element op : children(ops, "op")) {
                            m.put(k + " op " + op.getAttribute("name") + " interval=" + seconds(op.getAttribute(
                                    "interval")) + " role=" + op.getAttribute("role"), "timeout="
                                    + seconds(op.getAttribute("timeout")));
                        }
                    }
                }
                case "group", "clone", "master" -> {
                    m.put(k, "in " + parentId(parent));
                    resources(m, r);
                }
                default -> m.put(k, "unknown");
            }
            for (Element set : children(r, "meta_attributes")) {
                nvpairs(m, k + " meta ", set);
            }
            i++;
        }
    }

    private static String parentId(Element e) {
        return e.getTagName().equals("resources") ? "resources" : e.getAttribute("id");
    }

    /** "0", "0s" and "60s", "1m" alike (the shells may rewrite durations). */
    private static String seconds(String d) {
        java.util.regex.Matcher x = java.util.regex.Pattern.compile("(\\d+)(s|m|min|h)?").matcher(d);
        if (!x.matches()) {
            return d;
        }
        long n = Long.parseLong(x.group(1));
        String u = x.group(2) == null ? "s" : x.group(2);
        return (u.equals("s") ? n : u.startsWith("m") ? n * 60 : n * 3600) + "s";
    }

    private static String orDefault(Element e, String attr, String dflt) {
        return e.hasAttribute(attr) ? e.getAttribute(attr) : dflt;
    }

    private static void nvpairs(Map<String, String> m, String prefix, Element set) {
        for (Element nv : children(set, "nvpair")) {
            m.put(prefix + nv.getAttribute("name"), nv.getAttribute("value"));
        }
    }

    private static Element one(Element parent, String tag) {
        List<Element> l = children(parent, tag);
        return l.isEmpty() ? null : l.get(0);
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> out = new ArrayList<>();
        NodeList l = parent.getChildNodes();
        for (int i = 0; i < l.getLength(); i++) {
            Node n = l.item(i);
            if (n instanceof Element e && (tag == null || e.getTagName().equals(tag))) {
                out.add(e);
            }
        }
        return out;
    }

    private static Element parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new org.xml.sax.InputSource(new java.io.StringReader(xml)))
                .getDocumentElement();
    }
}
