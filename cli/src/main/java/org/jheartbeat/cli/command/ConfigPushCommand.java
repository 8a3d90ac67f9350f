package org.jheartbeat.cli.command;

import java.io.Console;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.config.JheartbeatYaml;
import org.jheartbeat.cli.runtime.ConfigPush;
import org.jheartbeat.cli.runtime.SshTransport;
import org.jheartbeat.core.config.AuthKeysParser;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hb config push}: copies this node's ha.cf, authkeys, haresources (and sync.yaml, jheartbeat.yaml when present)
 * to the peer over ssh, as Heartbeat's {@code ha_propagate} did, but first shows what it will
 * overwrite (per file a unified diff against the peer's copy, fetched with ssh) and asks. Each file is
 * written atomically on the peer (temporary file, rename; the old one kept as {@code NAME.bak}), with
 * this node's mode. Only a configuration that loads without errors is pushed.
 */
@Command(name = "push", mixinStandardHelpOptions = true,
        description = {"Copy this node's ha.cf, authkeys, haresources (and sync.yaml, jheartbeat.yaml if present) to the peer over"
                + " ssh, after showing a diff per file against the peer's copy and asking for confirmation.",
            "Each file is replaced atomically on the peer (old copy kept as NAME.bak) with this node's mode."
                + " The peer's daemon reads the files when it restarts, or on 'hb reload' there."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:pushed, nothing to push, or --dry-run", "1:ssh failed (unreachable, permission denied,"
                + " remote directory missing), a write failed, or not confirmed",
            "2:the local configuration is invalid, or authkeys is not mode 600",
            "64:usage error, or no terminal to confirm on and no --yes"})
public final class ConfigPushCommand implements Callable<Integer> {
    /** The default {@code --ssh}. */
    static final String DEFAULT_SSH = "ssh -o BatchMode=yes -o ConnectTimeout=5";

    @Spec
    CommandSpec spec;

    @Mixin
    ConfigDirOption configDir;

    @Option(names = "--to", paramLabel = "HOST",
            description = "The peer's address or name (default: the other node of ha.cf, which must resolve).")
    String to;

    @Option(names = "--remote-dir", paramLabel = "DIR",
            description = "The configuration directory on the peer (default: the same path as --config-dir).")
    String remoteDir;

    @Option(names = "--ssh", paramLabel = "CMD", defaultValue = DEFAULT_SSH,
            description = "The ssh command, split on blanks (default: ${DEFAULT-VALUE}).")
    String ssh;

    @Option(names = "--file", paramLabel = "NAME",
            description = "Push only this file (ha.cf, authkeys, haresources, sync.yaml or jheartbeat.yaml); repeatable.")
    List<String> only = new ArrayList<>();

    @Mixin
    NodeNameOption nodeName;

    @Option(names = {"-n", "--dry-run"}, description = "Only show what would be written.")
    boolean dryRun;

    @Option(names = {"-y", "--yes"}, description = "Do not ask for confirmation (required without a terminal).")
    boolean yes;

    @Override
    public Integer call() throws UserException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> sshArgv = SshTransport.split(ssh);
        if (sshArgv.isEmpty()) {
            throw new UserException(ExitCodes.USAGE, "config push: --ssh is empty; give the ssh command, e.g. --ssh \""
                    + DEFAULT_SSH + "\"");
        }
        if (to != null && (to.isBlank() || to.startsWith("-") || to.chars().anyMatch(Character::isWhitespace))) {
            throw new UserException(ExitCodes.USAGE, "config push: --to '" + to + "' is not a host name or address");
        }
        if (remoteDir != null && !remoteDir.startsWith("/")) {
            throw new UserException(ExitCodes.USAGE, "config push: --remote-dir must be an absolute path (got '"
                    + remoteDir + "')");
        }
        Set<String> files = new LinkedHashSet<>();
        for (String f : only) {
            if (!ConfigPush.FILES.contains(f)) {
                throw new UserException(ExitCodes.USAGE, "config push: --file " + f + ": not one of "
                        + String.join(", ", ConfigPush.FILES));
            }
            files.add(f);
        }
        Path dir = configDir.path().toAbsolutePath().normalize();

        ConfigLoadResult loaded = ConfigLoader.load(dir, Optional.empty());
        if (loaded.config().isEmpty()) {
            loaded.diagnostics().stream().filter(ConfigDiagnostic::isError).forEach(d -> err.println(d.format()));
            throw new UserException(ExitCodes.CONFIG, "config push: " + dir
                    + " is not a valid configuration (see hb config check --syntax-only); nothing pushed");
        }
        ClusterConfig config = loaded.config().get();
        try {
            org.jheartbeat.cli.runtime.SyncConfigFile.load(dir, Optional.of(config));
        } catch (UserException e) {
            err.println(e.getMessage());
            throw new UserException(ExitCodes.CONFIG, "config push: " + dir.resolve(ConfigPush.SYNC_YAML)
                    + " is not valid (see hb config check --syntax-only); nothing pushed");
        }
        try {
            JheartbeatYaml.load(dir, Optional.of(config));
        } catch (UserException e) {
            err.println(e.getMessage());
            throw new UserException(ExitCodes.CONFIG, "config push: " + dir.resolve(JheartbeatYaml.NAME)
                    + " is not valid (see hb config check --syntax-only); nothing pushed");
        }
        List<ConfigPush.FileCopy> local = readLocal(dir, files);

        String host = to != null ? to : peerHost(config);
        String rdir = remoteDir != null ? remoteDir : dir.toString();
        String where = host + ":" + rdir;
        SshTransport t = new SshTransport(sshArgv, host, 60);

        List<String> names = local.stream().map(ConfigPush.FileCopy::name).toList();
        SshTransport.Reply fetched = t.run(ConfigPush.fetchScript(rdir, names), new byte[0]);
        if (fetched.code() != 0) {
            throw new UserException(ExitCodes.FAILURE, "config push: " + t.describeFailure(fetched, rdir)
                    + "; nothing pushed");
        }
        Map<String, ConfigPush.FileCopy> remote;
        try {
            remote = ConfigPush.parseFetch(fetched.out());
        } catch (IllegalArgumentException e) {
            throw new UserException(ExitCodes.FAILURE, "config push: unexpected answer from " + host + " ("
                    + e.getMessage() + "); nothing pushed");
        }
        List<ConfigPush.Entry> plan = ConfigPush.plan(local, remote);
        out.println("Pushing " + dir + " to " + where + ":");
        ConfigPush.render(plan, dir.toString(), where).forEach(out::println);
        List<ConfigPush.Entry> changes = ConfigPush.changes(plan);
        if (changes.isEmpty()) {
            out.println("Nothing to push: " + where + " has the same files.");
            return ExitCodes.OK;
        }
        String list = String.join(", ", changes.stream().map(ConfigPush.Entry::name).toList());
        if (dryRun) {
            out.println("dry run: would write " + list + " on " + where + "; nothing changed");
            return ExitCodes.OK;
        }
        if (!yes) {
            out.flush();
            Console console = System.console();
            if (console == null) {
                throw new UserException(ExitCodes.USAGE, "config push: no terminal to ask for confirmation; pass --yes"
                        + " to write " + list + " on " + where + " (or --dry-run to only look)");
            }
            String answer = console.readLine("Write %s on %s? [y/N] ", list, where);
            if (answer == null || !answer.trim().toLowerCase(java.util.Locale.ROOT).matches("y|yes")) {
                throw new UserException(ExitCodes.FAILURE, "config push: not confirmed; nothing pushed");
            }
        }
        List<String> written = new ArrayList<>();
        for (ConfigPush.Entry e : changes) {
            ConfigPush.FileCopy f = e.local();
            byte[] content = f.content();
            SshTransport.Reply r = t.run(ConfigPush.writeScript(rdir, f.name(), content.length, f.mode()), content);
            if (r.code() != 0) {
                throw new UserException(ExitCodes.FAILURE, "config push: writing " + f.name() + " failed: "
                        + t.describeFailure(r, rdir) + (written.isEmpty() ? "; nothing pushed"
                        : "; already written: " + String.join(", ", written)));
            }
            written.add(f.name());
        }
        out.println("Wrote " + String.join(", ", written) + " on " + where + " (old copies kept as NAME.bak).");
        out.println("The daemon on " + host + " reads them when it restarts, or applies what it can live on 'hb reload'"
                + " there (e.g. systemctl reload jheartbeat); then 'hb config diff' on either node compares the running"
                + " configurations.");
        return ExitCodes.OK;
    }

    /**
     * This node's files to push: the three config files, and sync.yaml and jheartbeat.yaml if present (or
     * only those of --file).
     */
    private static List<ConfigPush.FileCopy> readLocal(Path dir, Set<String> only) throws UserException {
        List<ConfigPush.FileCopy> local = new ArrayList<>();
        for (String name : ConfigPush.FILES) {
            if (!only.isEmpty() && !only.contains(name)) {
                continue;
            }
            Path p = dir.resolve(name);
            if (!Files.exists(p)) {
                if ((name.equals(ConfigPush.SYNC_YAML) || name.equals(JheartbeatYaml.NAME)) && only.isEmpty()) {
                    continue;
                }
                throw new UserException(ExitCodes.CONFIG, "config push: " + p + " not found; nothing pushed");
            }
            try {
                if (!Files.isRegularFile(p)) {
                    throw new UserException(ExitCodes.CONFIG, "config push: " + p + " is not a regular file; nothing pushed");
                }
                int mode = mode(Files.getPosixFilePermissions(p));
                if (name.equals(AuthKeysParser.FILE_NAME) && mode != 0600) {
                    throw new UserException(ExitCodes.CONFIG, "config push: " + p + " is mode "
                            + Integer.toOctalString(mode) + "; it must be 600 before it is pushed: chmod 600 " + p);
                }
                local.add(new ConfigPush.FileCopy(name, Files.readAllBytes(p), mode));
            } catch (IOException e) {
                throw new UserException(ExitCodes.FAILURE, "config push: cannot read " + p + ": " + e.getMessage());
            }
        }
        return local;
    }

    static int mode(Set<PosixFilePermission> perms) {
        int m = 0;
        for (PosixFilePermission p : perms) {
            m |= 1 << (8 - p.ordinal());
        }
        return m;
    }

    /** The other node of ha.cf, if this machine is one of its nodes and the name resolves. */
    private String peerHost(ClusterConfig config) throws UserException {
        NodeName me;
        try {
            me = nodeName.value().map(NodeName::of).orElseGet(ConfigCommand::thisNode);
        } catch (IllegalArgumentException e) {
            throw new UserException(ExitCodes.USAGE, "config push: --node-name: " + e.getMessage());
        }
        List<NodeName> others = config.nodes().stream().filter(n -> !n.equals(me)).toList();
        if (others.size() != 1 || others.size() == config.nodes().size()) {
            throw new UserException(ExitCodes.USAGE, "config push: cannot tell the peer: this machine is " + me
                    + " and ha.cf's nodes are " + config.nodes() + "; pass --to HOST (or --node-name NAME)");
        }
        String peer = others.get(0).toString();
        try {
            InetAddress.getByName(peer);
        } catch (UnknownHostException e) {
            throw new UserException(ExitCodes.FAILURE, "config push: the peer's name " + peer
                    + " (from ha.cf) does not resolve on this machine; pass --to ADDRESS (e.g. its crossover address)");
        }
        return peer;
    }
}
