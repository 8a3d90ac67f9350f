package org.jheartbeat.cli.command;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.runtime.HaresourcesFile;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.HaresourcesDocument;
import org.jheartbeat.core.config.HaresourcesDocument.EditException;
import org.jheartbeat.core.config.LineDiff;
import org.jheartbeat.core.config.NodeName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The editing commands of {@code hb resources}. Each one:
 * <ol>
 *   <li>reads haresources ({@link HaresourcesDocument}; CRLF becomes LF, with a warning);</li>
 *   <li>makes the edit on the lines of one group only, or refuses it (exit 2, one line);</li>
 *   <li>if nothing changes (a move to the node the group is already on), says so and exits 0 without writing;</li>
 *   <li>checks the whole new text as {@code hb resources check} would; any error is printed as
 *       {@code haresources:LINE: message} (lines of the new text) and the file is left unchanged (exit 2);</li>
 *   <li>prints a unified diff; with {@code --dry-run} stops there;</li>
 *   <li>writes atomically, keeping the old file as {@code haresources.bak} ({@link HaresourcesFile#write}),
 *       and reminds that the peer needs the same file.</li>
 * </ol>
 */
final class ResourcesEditCommands {
    private ResourcesEditCommands() {
    }

    /** The edit pipeline; subclasses make the edit and describe it. */
    abstract static class Edit extends ResourcesCommand.Base {
        @Option(names = {"-n", "--dry-run"}, description = "Print the diff and the check result; do not write.")
        boolean dryRun;

        /** Makes the edit; may return {@code doc} itself for "nothing to change". */
        abstract HaresourcesDocument edit(HaresourcesDocument doc) throws EditException;

        /** What was done, e.g. {@code added group 3 (key X) on node1}, read from the new document. */
        abstract String done(HaresourcesDocument before, HaresourcesDocument after) throws EditException;

        /** Whether a missing haresources counts as empty (only {@code add}). */
        boolean createsFile() {
            return false;
        }

        @Override
        public Integer call() throws UserException {
            HaresourcesFile f = file();
            String name = spec.name();
            HaresourcesDocument before = f.read(createsFile());
            if (before.crlfNormalised()) {
                out().println(f.path() + ":1: warning: file has CRLF (DOS) line ends; it will be written with LF");
            }
            HaresourcesDocument after;
            String what;
            try {
                after = edit(before);
                what = done(before, after);
            } catch (EditException e) {
                throw new UserException(ExitCodes.CONFIG, "resources " + name + ": " + e.getMessage() + "; "
                        + f.path() + " not changed");
            }
            if (after.lines().equals(before.lines())) {
                out().println("resources " + name + ": nothing to change: " + what);
                return ExitCodes.OK;
            }
            List<NodeName> nodes = f.nodes();
            long errors = print(f.check(after.render(), nodes));
            if (errors > 0) {
                long already = f.check(before.render(), nodes).stream().filter(ConfigDiagnostic::isError).count();
                err().println("hb: resources " + name + ": refused, the edited haresources would have " + errors
                        + " error(s) (line numbers of the edited text)"
                        + (already > 0 ? "; " + already + " of them were already there, see hb resources check" : "")
                        + "; " + f.path() + " not changed");
                return ExitCodes.CONFIG;
            }
            out().println("--- " + f.path());
            out().println("+++ " + f.path() + (dryRun ? " (dry run)" : ""));
            LineDiff.unified(before.lines(), after.lines(), 1).forEach(out()::println);
            if (dryRun) {
                out().println("dry run: would have " + what + "; " + f.path() + " not changed");
                return ExitCodes.OK;
            }
            f.write(after.render());
            out().println(what + "; old file kept as " + f.path().getFileName() + ".bak");
            out().println("reminder: the peer must have the same haresources: copy it there (e.g. scp -p "
                    + f.path() + " root@PEER:" + f.path() + "); hb config diff compares the two nodes");
            return ExitCodes.OK;
        }
    }

    static String describe(HaresourcesDocument.Group g) {
        return "group " + g.number() + " (key " + g.key() + ") on " + g.node();
    }

    /** {@code hb resources add NODE RESOURCE...}: a new group, one line at the end of the file. */
    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Append a group NODE RESOURCE... as one line (creates haresources if missing).")
    static final class Add extends Edit {
        @Parameters(index = "0", paramLabel = "NODE", description = "Preferred node (an ha.cf node).")
        String node;

        @Parameters(index = "1..*", arity = "0..*", paramLabel = "RESOURCE",
                description = "Resources in start order: script[::arg...] or an IP address (IPaddr shorthand).")
        List<String> resources = new ArrayList<>();

        @Override
        boolean createsFile() {
            return true;
        }

        @Override
        HaresourcesDocument edit(HaresourcesDocument doc) throws EditException {
            return doc.withGroupAdded(node, resources);
        }

        @Override
        String done(HaresourcesDocument before, HaresourcesDocument after) {
            return "added " + describe(after.groups().get(after.groups().size() - 1));
        }
    }

    /** {@code hb resources remove KEY|N}: deletes the group's lines; comments above it stay. */
    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = "Delete a group's lines (comment lines above it are kept).")
    static final class Remove extends Edit {
        @Parameters(index = "0", paramLabel = "KEY|N", description = "Group key (first resource) or group number.")
        String ref;

        @Override
        HaresourcesDocument edit(HaresourcesDocument doc) throws EditException {
            return doc.withGroupRemoved(ref);
        }

        @Override
        String done(HaresourcesDocument before, HaresourcesDocument after) throws EditException {
            return "removed " + describe(before.find(ref));
        }
    }

    /** {@code hb resources move KEY|N NODE}: rewrites only the group's first token. */
    @Command(name = "move", mixinStandardHelpOptions = true,
            description = "Make NODE the group's preferred node (only its first token is rewritten).")
    static final class Move extends Edit {
        @Parameters(index = "0", paramLabel = "KEY|N", description = "Group key (first resource) or group number.")
        String ref;

        @Parameters(index = "1", paramLabel = "NODE", description = "The new preferred node (an ha.cf node).")
        String node;

        @Override
        HaresourcesDocument edit(HaresourcesDocument doc) throws EditException {
            return doc.withGroupMoved(ref, node);
        }

        @Override
        String done(HaresourcesDocument before, HaresourcesDocument after) throws EditException {
            HaresourcesDocument.Group g = before.find(ref);
            return before == after ? describe(g) + " already prefers " + node
                    : "moved " + describe(g) + " to " + node;
        }
    }

    /** {@code hb resources add-resource KEY|N RESOURCE}: appended after the group's last resource. */
    @Command(name = "add-resource", mixinStandardHelpOptions = true,
            description = "Append RESOURCE to a group (started last, stopped first).")
    static final class AddResource extends Edit {
        @Parameters(index = "0", paramLabel = "KEY|N", description = "Group key (first resource) or group number.")
        String ref;

        @Parameters(index = "1", paramLabel = "RESOURCE", description = "script[::arg...] or an IP address.")
        String resource;

        @Override
        HaresourcesDocument edit(HaresourcesDocument doc) throws EditException {
            return doc.withResourceAdded(ref, resource);
        }

        @Override
        String done(HaresourcesDocument before, HaresourcesDocument after) throws EditException {
            return "added " + resource + " to " + describe(before.find(ref));
        }
    }

    /** {@code hb resources remove-resource KEY|N RESOURCE}: removes one token (not the group's last). */
    @Command(name = "remove-resource", mixinStandardHelpOptions = true,
            description = "Remove RESOURCE from a group; removing its key changes the group's key.")
    static final class RemoveResource extends Edit {
        @Parameters(index = "0", paramLabel = "KEY|N", description = "Group key (first resource) or group number.")
        String ref;

        @Parameters(index = "1", paramLabel = "RESOURCE", description = "The resource token as written.")
        String resource;

        @Override
        HaresourcesDocument edit(HaresourcesDocument doc) throws EditException {
            return doc.withResourceRemoved(ref, resource);
        }

        @Override
        String done(HaresourcesDocument before, HaresourcesDocument after) throws EditException {
            return "removed " + resource + " from " + describe(before.find(ref));
        }
    }
}
