package org.jheartbeat.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.runtime.HaresourcesFile;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.HaresourcesDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb resources ...}: read and edit {@code haresources} (facts E.1) in place. The reading
 * commands are here; the editing ones ({@code add}, {@code remove}, {@code move}, {@code add-resource},
 * {@code remove-resource}) are in {@link ResourcesEditCommands}. A group is named by its key (first
 * resource, exact) or, if no key matches, by its number as {@code hb resources list} prints it.
 * {@code hb resources cleanup [GROUP]} is {@link CleanupCommand} ({@code hb cleanup}) under the name
 * Pacemaker's {@code crm resource cleanup} suggests: one request clears both a group's FAILED/BLOCKED
 * state and its resources' monitor fail counts.
 */
@Command(name = "resources", description = "List, check and edit the resource groups of haresources.",
        mixinStandardHelpOptions = true,
        subcommands = {ResourcesCommand.ListGroups.class, ResourcesCommand.Show.class, ResourcesCommand.Check.class,
            ResourcesCommand.Describe.class, CleanupCommand.class,
            ResourcesEditCommands.Add.class, ResourcesEditCommands.Remove.class, ResourcesEditCommands.Move.class,
            ResourcesEditCommands.AddResource.class, ResourcesEditCommands.RemoveResource.class})
public final class ResourcesCommand extends CommandGroup {
    /** Where init scripts are looked for, after {@code resource.d} (Heartbeat's ResourceManager). */
    static final Path INIT_DIR = Path.of("/etc/init.d");

    /** Options and helpers shared by every {@code hb resources} command. */
    abstract static class Base implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        ConfigDirOption configDir;

        HaresourcesFile file() {
            return new HaresourcesFile(configDir.path(), INIT_DIR);
        }

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        PrintWriter err() {
            return spec.commandLine().getErr();
        }

        /** Prints warnings on stdout and errors on stderr; returns the number of errors. */
        long print(List<ConfigDiagnostic> diagnostics) {
            for (ConfigDiagnostic d : diagnostics) {
                (d.isError() ? err() : out()).println(d.format());
            }
            return diagnostics.stream().filter(ConfigDiagnostic::isError).count();
        }
    }

    /** {@code hb resources list}: one line per group, {@code NUMBER NODE RESOURCE...}; works on a broken file too. */
    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "One line per group: number, preferred node, resources in start order.")
    public static final class ListGroups extends Base {
        @Override
        public Integer call() throws UserException {
            HaresourcesDocument doc = file().read(false);
            if (doc.groups().isEmpty()) {
                out().println("no resource groups in " + file().path());
            }
            for (HaresourcesDocument.Group g : doc.groups()) {
                out().println(String.format("%-3d %-12s %s", g.number(), g.node(), String.join(" ", g.resources())));
            }
            return ExitCodes.OK;
        }
    }

    /** {@code hb resources show KEY|N}: the group's node, key, resources and its lines as written. */
    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Show one group: preferred node, key, resources and its lines as written.")
    public static final class Show extends Base {
        @Parameters(index = "0", paramLabel = "KEY|N", description = "Group key (first resource) or group number.")
        String ref;

        @Override
        public Integer call() throws UserException {
            HaresourcesDocument doc = file().read(false);
            HaresourcesDocument.Group g;
            try {
                g = doc.find(ref);
            } catch (HaresourcesDocument.EditException e) {
                throw new UserException(ExitCodes.CONFIG, "resources show: " + e.getMessage());
            }
            out().println("group " + g.number() + " of " + file().path() + ", lines " + g.firstLine() + "-" + g.lastLine());
            out().println("  preferred node: " + g.node());
            out().println("  key:            " + g.key());
            out().println("  resources (start order; stopped in reverse):");
            List<String> resources = g.resources();
            for (int i = 0; i < resources.size(); i++) {
                out().println("    " + (i + 1) + ". " + resources.get(i));
            }
            out().println("  as written:");
            List<String> lines = doc.lines();
            for (int n = g.firstLine(); n <= g.lastLine(); n++) {
                out().println(String.format("  %4d| %s", n, lines.get(n - 1)));
            }
            return ExitCodes.OK;
        }
    }

    /**
     * {@code hb resources describe AGENT}: an OCF agent's parameters from its meta-data (OCF
     * resource-agent API 1.0): name, required, default, description, then the action timeouts.
     * AGENT is {@code ocf:PROVIDER:TYPE}, or a bare TYPE meaning {@code ocf:heartbeat:TYPE}.
     */
    @Command(name = "describe", mixinStandardHelpOptions = true,
            description = "Print an OCF agent's parameters (name, required, default, description) from its meta-data.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:printed", "2:unknown agent or unreadable meta-data", "64:usage error"})
    public static final class Describe implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "AGENT",
                description = "ocf:PROVIDER:TYPE, or TYPE for ocf:heartbeat:TYPE (e.g. IPaddr2, Filesystem).")
        String agent;

        @picocli.CommandLine.Option(names = "--ocf-root", paramLabel = "DIR", defaultValue = "/usr/lib/ocf",
                description = "OCF_ROOT (default: ${DEFAULT-VALUE}).")
        Path ocfRoot;

        @Override
        public Integer call() throws UserException {
            String written = agent.contains(":") ? agent : "ocf:heartbeat:" + agent;
            org.jheartbeat.core.config.AgentRef ref;
            try {
                ref = new org.jheartbeat.core.config.ResourceSpec(written, List.of(), written).agentRef();
            } catch (IllegalArgumentException e) {
                throw new UserException(ExitCodes.CONFIG, "resources describe: " + e.getMessage());
            }
            if (!(ref instanceof org.jheartbeat.core.config.AgentRef.Ocf ocf)) {
                throw new UserException(ExitCodes.CONFIG, "resources describe: " + agent + " is not an OCF agent;"
                        + " only OCF agents have meta-data: write ocf:PROVIDER:TYPE, e.g. ocf:heartbeat:IPaddr2");
            }
            org.jheartbeat.resources.ocf.OcfMetadata md;
            try {
                md = new org.jheartbeat.resources.ocf.OcfDirectory(ocfRoot, new org.jheartbeat.core.exec.OsProcessRunner())
                        .metadata(ocf, written);
            } catch (org.jheartbeat.resources.AgentNotFoundException e) {
                // the check's message has the did-you-mean among the provider's agents
                String why = new org.jheartbeat.resources.lookup.AgentCheck(
                        new org.jheartbeat.resources.lookup.ScriptLocator(ocfRoot, ocfRoot),
                        new org.jheartbeat.resources.ocf.OcfDirectory(ocfRoot, new org.jheartbeat.core.exec.OsProcessRunner()),
                        List.of()).check(new org.jheartbeat.core.config.ResourceSpec(written, List.of(), written))
                        .stream().map(org.jheartbeat.resources.lookup.AgentCheck.Problem::message).findFirst()
                        .orElse(e.getMessage());
                throw new UserException(ExitCodes.CONFIG, "resources describe: " + why);
            } catch (org.jheartbeat.resources.ResourceAgentException e) {
                throw new UserException(ExitCodes.CONFIG, "resources describe: " + e.getMessage()
                        + "; list the agents with: ls " + ocfRoot.resolve("resource.d").resolve(ocf.provider()));
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println(ocf.qualifiedName() + (md.shortdesc().isEmpty() ? "" : ": " + md.shortdesc()));
            out.println();
            out.println(String.format("%-24s %-8s %-20s %s", "PARAMETER", "REQUIRED", "DEFAULT", "DESCRIPTION"));
            for (org.jheartbeat.resources.ocf.OcfMetadata.Parameter p : md.parameters()) {
                out.println(String.format("%-24s %-8s %-20s %s", p.name(), p.required() ? "yes" : "no",
                        p.defaultValue().map(d -> d.isEmpty() ? "\"\"" : d).orElse("-"), p.shortdesc()));
            }
            out.println();
            out.println("timeouts: " + String.join(", ", md.actions().entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue().toSeconds() + "s").toList()));
            out.println("haresources: " + ocf.qualifiedName() + md.parameters().stream().filter(
                    org.jheartbeat.resources.ocf.OcfMetadata.Parameter::required).map(p -> "::" + p.name() + "=...")
                    .reduce("", String::concat));
            return ExitCodes.OK;
        }
    }

    /**
     * {@code hb resources check}: haresources as the daemon reads it (parse against ha.cf's nodes), plus
     * the haresources part of {@code hb config check}'s machine checks (scripts, addresses, interfaces).
     */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Check haresources: syntax, nodes, scripts, agent classes and OCF parameters, addresses;"
                    + " print file:line: message.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:valid (warnings may be printed)", "2:at least one error", "64:usage error"})
    public static final class Check extends Base {
        @Override
        public Integer call() throws UserException {
            HaresourcesFile f = file();
            String text = f.readText(false);
            long errors = print(f.check(text, f.nodes()));
            if (errors > 0) {
                err().println(errors + " error(s) in " + f.path());
                return ExitCodes.CONFIG;
            }
            out().println(f.path() + ": OK, " + HaresourcesDocument.parse(text).groups().size() + " group(s)");
            return ExitCodes.OK;
        }
    }
}
