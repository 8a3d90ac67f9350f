package org.jheartbeat.core.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads haresources with Heartbeat 3.0.6's rules ({@code config.c} {@code parse_ha_resources}, the
 * ResourceManager script; facts E.1):
 * <ul>
 *   <li>one resource group per logical line: {@code node resource [resource...]};</li>
 *   <li>text from {@code #} to end of line is removed; a {@code \} that is then the very last character
 *       of the line joins the next (ResourceManager's {@code sed}): a {@code \} followed by a blank (and
 *       perhaps a comment) does not, and the next line then becomes a group of its own, refused for its
 *       node name with a hint naming the trailing blank; runs of blanks and tabs are one separator;</li>
 *   <li>the first token is the preferred node, lowercased; it must be an ha.cf {@code node}
 *       ({@code Bad nodename});</li>
 *   <li>a resource token is {@code script[::arg...]}; a token that starts with a digit and has the form
 *       {@code *.*.*.*} is shorthand for {@code IPaddr::token};</li>
 *   <li>{@code IPaddr}/{@code IPaddr2} arguments are checked with {@link IpAddrArgument}, the parser the IP
 *       agent uses at takeover, so what passes here starts there;</li>
 *   <li>a class prefix ({@code lsb:}, {@code ocf:P:T}, {@code systemd:}) and its {@code name=value}
 *       arguments are read with {@link AgentRef#parse}: an unknown class, a malformed argument or a
 *       timeout that does not parse is an error of its line;</li>
 *   <li>the group key (first resource) is unique, and no resource token is in two groups.</li>
 * </ul>
 * Never throws on bad input.
 */
public final class HaresourcesParser {
    /** The file name inside a config directory. */
    public static final String FILE_NAME = "haresources";
    private static final String IPADDR2 = "IPaddr2";

    private HaresourcesParser() {
    }

    /**
     * What a parse produced.
     *
     * @param groups      the groups that parsed cleanly, in file order
     * @param diagnostics errors and warnings in line order
     */
    public record Result(List<ResourceGroupDecl> groups, List<ConfigDiagnostic> diagnostics) {
        public Result {
            groups = List.copyOf(groups);
            diagnostics = List.copyOf(diagnostics);
        }

        /** Whether any diagnostic is an ERROR. */
        public boolean hasErrors() {
            return diagnostics.stream().anyMatch(ConfigDiagnostic::isError);
        }
    }

    /**
     * A logical line: text after comment removal and continuation joining, and its first line.
     *
     * @param brokenContinuation the physical line before it, if that line looked continued but was not
     *                           (a {@code \} followed by a blank), else 0
     */
    private record LogicalLine(String text, int line, int brokenContinuation) {
    }

    /**
     * Parses the text of a haresources file.
     *
     * @param file  the path to name in diagnostics (not read)
     * @param text  the whole file
     * @param nodes the ha.cf nodes; if empty (ha.cf has its own error), preferred nodes are not checked
     * @return the groups and the diagnostics
     */
    public static Result parse(Path file, String text, Collection<NodeName> nodes) {
        List<ConfigDiagnostic> diagnostics = new ArrayList<>();
        List<ResourceGroupDecl> groups = new ArrayList<>();
        Map<String, Integer> tokenLines = new HashMap<>();
        for (LogicalLine logical : logicalLines(ConfigText.lines(file, text, diagnostics))) {
            group(file, logical, nodes, diagnostics).ifPresent(group -> {
                if (unique(file, group, tokenLines, diagnostics)) {
                    groups.add(group);
                }
            });
        }
        return new Result(groups, diagnostics);
    }

    private static List<LogicalLine> logicalLines(List<String> lines) {
        List<LogicalLine> logical = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        int start = 0;
        int broken = 0;
        int previousBroken = 0;
        for (int i = 0; i < lines.size(); i++) {
            String raw = lines.get(i);
            String content = ConfigText.stripComment(raw).stripTrailing();
            boolean continued = ConfigText.continues(raw);
            if (pending.length() == 0) {
                start = i + 1;
                broken = previousBroken;
            }
            // a backslash that only a trailing blank kept from continuing: reported with the next line
            previousBroken = !continued && content.endsWith("\\") ? i + 1 : 0;
            if (content.endsWith("\\")) {
                content = content.substring(0, content.length() - 1);
            }
            pending.append(content).append(' ');
            if (!continued || i == lines.size() - 1) {
                if (!pending.toString().isBlank()) {
                    logical.add(new LogicalLine(pending.toString(), start, broken));
                }
                pending.setLength(0);
            }
        }
        return logical;
    }

    private static Optional<ResourceGroupDecl> group(Path file, LogicalLine logical, Collection<NodeName> nodes,
                                                     List<ConfigDiagnostic> diagnostics) {
        List<String> tokens = Arrays.stream(logical.text().split("[ \t]+")).filter(s -> !s.isEmpty()).toList();
        if (tokens.isEmpty()) {
            return Optional.empty();
        }
        int line = logical.line();
        NodeName node;
        try {
            node = NodeName.of(tokens.get(0));
        } catch (IllegalArgumentException e) {
            diagnostics.add(ConfigDiagnostic.error(file, line, "Bad nodename in " + FILE_NAME + " [" + tokens.get(0) + "]"));
            return Optional.empty();
        }
        boolean ok = true;
        if (!nodes.isEmpty() && !nodes.contains(node)) {
            diagnostics.add(ConfigDiagnostic.error(file, line, "Bad nodename in " + FILE_NAME + " [" + node
                    + "]: it is not a 'node' in ha.cf (nodes: "
                    + nodes.stream().map(NodeName::value).collect(Collectors.joining(", ")) + ")"
                    + brokenContinuationHint(logical)));
            return Optional.empty();
        }
        if (tokens.size() == 1) {
            diagnostics.add(ConfigDiagnostic.error(file, line, "resource group for node [" + node
                    + "] has no resources: expected '" + node + " RESOURCE [RESOURCE...]'"));
            return Optional.empty();
        }
        List<ResourceSpec> resources = new ArrayList<>();
        for (String token : tokens.subList(1, tokens.size())) {
            Optional<ResourceSpec> spec = resource(token);
            String problem = spec.isEmpty() ? "invalid resource [" + token + "]: expected script[::arg...]"
                    : ipProblem(spec.get());
            if (problem == null) {
                problem = classProblem(spec.get());
            }
            if (problem != null) {
                diagnostics.add(ConfigDiagnostic.error(file, line, problem));
                ok = false;
            } else {
                resources.add(spec.get());
            }
        }
        return ok ? Optional.of(new ResourceGroupDecl(node, resources, line)) : Optional.empty();
    }

    private static String brokenContinuationHint(LogicalLine logical) {
        if (logical.brokenContinuation() == 0) {
            return "";
        }
        return "; line " + logical.brokenContinuation() + " ends with '\\' followed by a blank, which does not"
                + " continue the line (Heartbeat continues only when '\\' is the last character before the"
                + " newline or a '#'): remove the trailing blank after the '\\' on line "
                + logical.brokenContinuation();
    }

    /**
     * Parses one resource token as the daemon does: IP shorthand ({@code 198.18.0.100/24/eth0} is
     * {@code IPaddr::198.18.0.100/24/eth0}), or {@code script[::arg...]}.
     *
     * @param token one blank-free token of a haresources line, not empty
     * @return the spec, or empty if the script name is empty
     */
    public static Optional<ResourceSpec> resource(String token) {
        if (Character.isDigit(token.charAt(0)) && token.split("\\.", -1).length >= 4) {
            return Optional.of(new ResourceSpec(ResourceSpec.IPADDR, List.of(token), token));
        }
        String[] parts = token.split("::", -1);
        if (parts[0].isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ResourceSpec(parts[0], Arrays.asList(parts).subList(1, parts.length), token));
    }

    /** For IPaddr/IPaddr2 resources, why the argument is bad ("bad IP address ..."), or null if fine. */
    private static String ipProblem(ResourceSpec spec) {
        if (!spec.agent().equals(ResourceSpec.IPADDR) && !spec.agent().equals(IPADDR2)) {
            return null;
        }
        try {
            IpAddrArgument.parse(spec.agent(), spec.agentArgs());
            return null;
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            int detail = m.startsWith("IPaddr [") ? m.indexOf("]: ") : -1;
            return "bad IP address [" + spec.token() + "]: " + (detail < 0 ? m : m.substring(detail + 3));
        }
    }

    /** Why the token's class or arguments are bad ({@link AgentRef#parse}), or null if fine. */
    private static String classProblem(ResourceSpec spec) {
        try {
            AgentRef.parse(spec);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static boolean unique(Path file, ResourceGroupDecl group, Map<String, Integer> tokenLines,
                                  List<ConfigDiagnostic> diagnostics) {
        boolean ok = true;
        for (ResourceSpec spec : group.resources()) {
            Integer earlier = tokenLines.get(spec.token());
            if (earlier != null) {
                String what = spec.token().equals(group.key()) ? "duplicate group key [" : "duplicate resource [";
                diagnostics.add(ConfigDiagnostic.error(file, group.line(), what + spec.token()
                        + "]: it is already in the group on line " + earlier + "; a resource may be in one group only"));
                ok = false;
            }
        }
        if (ok) {
            group.resources().forEach(spec -> tokenLines.put(spec.token(), group.line()));
        }
        return ok;
    }
}
