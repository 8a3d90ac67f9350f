package org.jheartbeat.cli.command;

import java.io.Console;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.runtime.ConfigPush;
import org.jheartbeat.cli.runtime.SshTransport;
import org.jheartbeat.cli.setup.HostInventory;
import org.jheartbeat.cli.setup.PairStatus;
import org.jheartbeat.cli.setup.ServiceStarter;
import org.jheartbeat.cli.setup.SetupAnswers;
import org.jheartbeat.cli.setup.SetupFiles;
import org.jheartbeat.cli.setup.SetupGroupCheck;
import org.jheartbeat.cli.setup.SetupPlan;
import org.jheartbeat.cli.setup.SetupPrompts;
import org.jheartbeat.core.config.AuthKeysParser;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.time.Sleeper;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hb setup}: from two bare nodes to a running pair, run on one of them, as {@code pcs cluster setup}
 * or {@code crm cluster init} do for Pacemaker. The answers (options, or prompts on a terminal) become ha.cf,
 * authkeys (a random sha1 key), haresources and jheartbeat.yaml ({@link SetupFiles}); the peer is reached with
 * {@code hb config push}'s ssh ({@link PeerSshOptions}). Nothing is half applied: the files are staged in
 * {@code DIR/.hb-setup} on both nodes, checked there with {@code hb config check} on each node, and moved into
 * place only when both checks pass; then the service is started on both ({@link ServiceStarter}), and the
 * command waits until each node's daemon lists the other as active. A re-run with the same answers changes
 * nothing; a node holding different files is left alone unless {@code --force} ({@link SetupPlan}).
 */
@Command(name = "setup", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Configure a new pair from this node: write ha.cf, authkeys (random sha1 key), haresources and"
                + " jheartbeat.yaml on both nodes, check them with hb config check on each, start the service on"
                + " both and wait until the nodes see each other.",
            "Asks on a terminal for what the options do not give; without a terminal every answer must be an option."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the pair runs with these files, or nothing to change", "1:the peer cannot be reached over"
                + " ssh or an ssh call takes longer than --ssh-timeout, a start failed, the nodes do not see each other"
                + " within --wait, the group failed to start or does not run within --wait, or a node holds different"
                + " files (use --force)", "2:the answers make"
                + " an invalid configuration, or hb config check fails on a node (nothing moved into place)",
            "64:usage error, or no terminal and an answer missing"})
public final class SetupCommand implements Callable<Integer> {
    /** The staging directory, inside the configuration directory on both nodes (same file system: renames). */
    static final String STAGE = ".hb-setup";
    /** What the peer's {@code uname -n} call prints after the name when a stage is there. */
    private static final String STAGE_FOUND = "hb-setup-stage-found";
    private static final String NOTHING_WRITTEN = "nothing written on either node";

    @Spec
    CommandSpec spec;

    @Mixin
    ConfigDirOption configDir;

    @Mixin
    NodeNameOption nodeName;

    @Mixin
    StateDirOption stateDir;

    @Option(names = "--peer-name", paramLabel = "NAME", description = "The peer node's name (its uname -n).")
    String peerName;

    @Option(names = "--ucast", paramLabel = "IF:PEER_ADDRESS", description = "A UDP link: this node's interface"
            + " (the same name on the peer) and the peer's IPv4 address on it; repeatable.")
    List<String> ucast = new ArrayList<>();

    @Option(names = "--serial", paramLabel = "DEVICE", description = "A serial link (null-modem cable), the same"
            + " device on both nodes, e.g. /dev/ttyS0; repeatable.")
    List<String> serial = new ArrayList<>();

    @Option(names = "--baud", paramLabel = "BPS", defaultValue = "19200", description = "The serial links' speed in bit/s"
            + " (default: ${DEFAULT-VALUE}).")
    int baud;

    @Option(names = "--group", paramLabel = "LINE", description = "The first resource group, a haresources line:"
            + " \"NODE ADDRESS/BITS/IF RESOURCE...\", ADDRESS in the subnet of IF here, e.g. \"node1"
            + " 192.168.1.100/24/eth0 apache2\".")
    String group;

    @Option(names = "--logfile", paramLabel = "FILE", defaultValue = SetupAnswers.DEFAULT_LOGFILE,
            description = "ha.cf's logfile on both nodes; 'none' for syslog only (default: ${DEFAULT-VALUE}).")
    String logfile;

    @Mixin
    PeerSshOptions peerSsh;

    @Option(names = "--remote-dir", paramLabel = "DIR", description = "The configuration directory on the peer"
            + " (default: the same path as --config-dir).")
    String remoteDir;

    @Option(names = "--remote-state-dir", paramLabel = "DIR", description = "The daemon's state directory on the"
            + " peer (default: the same path as --state-dir).")
    String remoteStateDir;

    @Option(names = "--start-command", paramLabel = "SCRIPT", description = "The shell script that enables and"
            + " starts the daemon, run with sh -c here and over ssh on the peer; exit 0: started, 100: not"
            + " installed (default: systemctl enable + start jheartbeat.service).")
    String startCommand;

    @Option(names = "--wait", paramLabel = "S", defaultValue = "120", description = "How long to wait, in seconds, for the nodes"
            + " to see each other (default: ${DEFAULT-VALUE}).")
    int waitS;

    @Option(names = "--ssh-timeout", paramLabel = "S", defaultValue = "60", description = "How long one ssh call to"
            + " the peer may take, in seconds, 1..3600 (default: ${DEFAULT-VALUE}; starting the service there may take"
            + " 90 s at least); a call that takes longer stops hb setup with one message, before the move with"
            + " nothing moved into place.")
    int sshTimeoutS;

    @Option(names = "--force", description = "Replace files that differ from these answers (old copies kept as"
            + " NAME.bak).")
    boolean force;

    /** The terminal to ask on; null: {@code System.console()}, if any. A field so tests can script it. */
    SetupPrompts.Terminal terminal;
    /** This machine's links; a field so tests can give their own. */
    HostInventory inventory;
    /** The pause between two looks at the pair. */
    Sleeper sleeper = Sleeper.system();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (waitS < 1 || waitS > 3600) {
            throw new UserException(ExitCodes.USAGE, "setup: --wait must be 1..3600 s");
        }
        if (sshTimeoutS < 1 || sshTimeoutS > 3600) {
            throw new UserException(ExitCodes.USAGE, "setup: --ssh-timeout must be 1..3600 s");
        }
        List<String> sshArgv = SshTransport.split(peerSsh.ssh);
        if (sshArgv.isEmpty()) {
            throw new UserException(ExitCodes.USAGE, "setup: --ssh is empty; give the ssh command");
        }
        String me;
        try {
            me = nodeName.value().map(NodeName::of).orElseGet(ConfigCommand::thisNode).toString();
        } catch (IllegalArgumentException e) {
            throw new UserException(ExitCodes.USAGE, "setup: --node-name: " + e.getMessage());
        }
        HostInventory inv = inventory != null ? inventory : HostInventory.read();
        SetupPrompts.Given given = SetupPrompts.complete(new SetupPrompts.Given(peerName, ucast, serial, group), inv,
                me, Optional.ofNullable(terminal).or(SetupCommand::console));
        String host = peerSsh.peer != null ? peerSsh.peer : given.ucast().stream().map(u -> u.substring(u.indexOf(':') + 1))
                .findFirst().orElseThrow(() -> new UserException(ExitCodes.USAGE, "setup: with serial links only,"
                + " give --peer HOST, the address ssh reaches the peer at"));
        Path dir = configDir.path().toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new UserException(ExitCodes.CONFIG, "setup: " + dir + " does not exist; install the package (it makes"
                    + " it) or mkdir it, or pass --config-dir DIR");
        }
        String rdir = remoteDir != null ? remoteDir : dir.toString();
        String rstate = remoteStateDir != null ? remoteStateDir : stateDir.path().toAbsolutePath().toString();
        SshTransport ssh = new SshTransport(sshArgv, host, sshTimeoutS);

        // the answers are checked before ssh is tried: a wrong one is one message, whatever the peer's state; the
        // key is the only part that depends on the nodes' files, and no check looks at it
        checkAnswers(SetupPrompts.answers(given, inv, me, baud, logfile.equals("none") ? "" : logfile,
                "0".repeat(40)), dir, inv);
        Map<String, ConfigPush.FileCopy> localNow = readLocal(dir);
        SshTransport.Reply fetched = SetupApply.call(ssh, ConfigPush.fetchScript(rdir, SetupFiles.NAMES), new byte[0],
                NOTHING_WRITTEN);
        if (fetched.code() != 0) {
            throw new UserException(ExitCodes.FAILURE, "setup: " + ssh.describeFailure(fetched, rdir, "--peer")
                    + "; nothing written on either node");
        }
        Map<String, ConfigPush.FileCopy> peerNow;
        try {
            peerNow = ConfigPush.parseFetch(fetched.out());
        } catch (IllegalArgumentException e) {
            throw new UserException(ExitCodes.FAILURE, "setup: unexpected answer from " + host + " (" + e.getMessage()
                    + "); nothing written on either node");
        }
        boolean peerStage = checkPeerName(ssh, host, given.peerName(), rdir);
        removeStaleStages(out, ssh, dir, me, SetupPlan.where(NodeName.of(given.peerName()).toString(), host, rdir),
                rdir, peerStage);
        String key = Optional.ofNullable(localNow.get(AuthKeysParser.FILE_NAME))
                .or(() -> Optional.ofNullable(peerNow.get(AuthKeysParser.FILE_NAME)))
                .flatMap(f -> SetupFiles.existingKey(new String(f.content(), StandardCharsets.ISO_8859_1)))
                .orElseGet(() -> SetupFiles.randomKey(new SecureRandom()));
        SetupAnswers answers = SetupPrompts.answers(given, inv, me, baud, logfile.equals("none") ? "" : logfile, key);
        Map<String, String> files = SetupFiles.render(answers);

        SetupPlan plan = SetupPlan.decide(files, localNow, peerNow, force);
        String peer = answers.peer();
        String where = SetupPlan.where(peer, host, rdir);
        ServiceStarter starter = ServiceStarter.shell(startCommand == null ? ServiceStarter.SYSTEMD : startCommand,
                Duration.ofSeconds(90));
        SetupApply apply = new SetupApply(out, spec.commandLine().getErr(), ssh, dir, rdir, rstate, me, peer, where,
                sleeper);
        if (plan.decision() == SetupPlan.Decision.NOTHING_TO_CHANGE) {
            Optional<String> mine = statusJson(stateDir.path());
            if (mine.isPresent() && PairStatus.seesActive(mine.get(), peer)) {
                out.println("Nothing to change: " + me + ":" + dir + " and " + where + " already hold this"
                        + " configuration, and the pair runs.");
                return ExitCodes.OK;
            }
            // a run stopped after the files were in place (a failed start, an interrupt) is finished here, not
            // declared done with no daemon running
            out.println("Nothing to write: " + me + ":" + dir + " and " + where + " already hold this"
                    + " configuration, but " + me + "'s daemon " + (mine.isEmpty() ? "is not running" : "does not"
                    + " see " + peer) + "; starting the service on both.");
            out.flush();
            return apply.startAndWait(starter, stateDir.path(), peerSsh.remoteHb, waitS);
        }
        plan.render(me + ":" + dir, where).forEach(out::println);
        if (plan.decision() == SetupPlan.Decision.REFUSE) {
            throw new UserException(ExitCodes.FAILURE, "setup: " + String.join(", ", plan.differingFiles(me, peer))
                    + " differ from these answers (diff above); nothing written. Give the answers the pair was set"
                    + " up with, or --force to replace them (old copies kept as NAME.bak)");
        }
        out.flush();
        return apply.run(files, plan, stateDir.path(), starter, peerSsh.remoteHb, waitS);
    }

    /**
     * Exit 64 unless the machine ssh reaches calls itself {@code peerName}: its daemon runs as its {@code uname -n}
     * (the unit gives no --node-name), so a wrong name passed the check there (run with that name) and left both
     * nodes with the new files and the peer's daemon refusing to start. The same call looks for a stage an
     * interrupted run left in {@code rdir} (no second round trip).
     *
     * @return whether {@code rdir} holds a stage ({@value #STAGE})
     */
    static boolean checkPeerName(SshTransport ssh, String host, String peerName, String rdir) throws UserException {
        SshTransport.Reply r = SetupApply.call(ssh, "uname -n || exit\n[ ! -e " + ConfigPush.shQuote(rdir + "/" + STAGE)
                + " ] || echo " + STAGE_FOUND + "\n", new byte[0], NOTHING_WRITTEN);
        String[] lines = new String(r.out(), StandardCharsets.UTF_8).strip().split("\n");
        String name = lines[0].strip();
        if (r.code() != 0 || name.isEmpty()) {
            throw new UserException(ExitCodes.FAILURE, "setup: uname -n on " + host + " failed: "
                    + ssh.describeFailure(r, "", "--peer") + "; nothing written on either node");
        }
        boolean same;
        try {
            same = NodeName.of(name).equals(NodeName.of(peerName));
        } catch (IllegalArgumentException e) {
            same = false;
        }
        if (!same) {
            throw new UserException(ExitCodes.USAGE, "setup: " + host + " calls itself " + name + " (uname -n), not "
                    + peerName + "; give --peer-name " + name + " (its daemon runs under that name), or --peer with"
                    + " the address of " + peerName + "; nothing written on either node");
        }
        return lines.length > 1 && lines[lines.length - 1].strip().equals(STAGE_FOUND);
    }

    /**
     * Removes the stages a run stopped between staging and the move left behind (SIGKILL, a power cut: no hook
     * ran), before anything else is done: they hold a copy of the key, and are no configuration.
     */
    private static void removeStaleStages(PrintWriter out, SshTransport ssh, Path dir, String me, String peerWhere,
            String rdir, boolean onPeer) throws UserException {
        Path stage = dir.resolve(STAGE);
        if (Files.exists(stage, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try {
                SetupApply.deleteTree(stage);
            } catch (IOException e) {
                throw new UserException(ExitCodes.FAILURE, "setup: cannot remove " + stage + ", left by an interrupted"
                        + " hb setup: " + e.getMessage() + "; remove it and run hb setup again; nothing written on"
                        + " either node");
            }
            out.println("Removed " + me + ":" + stage + ", left by an interrupted hb setup.");
        }
        if (onPeer) {
            String rstage = rdir + "/" + STAGE;
            SshTransport.Reply r = SetupApply.call(ssh, "rm -rf " + ConfigPush.shQuote(rstage), new byte[0],
                    NOTHING_WRITTEN);
            if (r.code() != 0) {
                throw new UserException(ExitCodes.FAILURE, "setup: cannot remove " + peerWhere + "/" + STAGE + ", left"
                        + " by an interrupted hb setup: " + ssh.describeFailure(r, rdir, "--peer") + "; remove it and"
                        + " run hb setup again; nothing written on either node");
            }
            out.println("Removed " + peerWhere + "/" + STAGE + ", left by an interrupted hb setup.");
        }
    }

    /** Exit 2 with every error (as {@code file:line} of the file as it would be written) the answers make. */
    private void checkAnswers(SetupAnswers answers, Path dir, HostInventory inv) throws UserException {
        Map<String, String> files = SetupFiles.render(answers);
        List<ConfigDiagnostic> bad = new ArrayList<>(SetupFiles.parse(files, dir).stream()
                .filter(ConfigDiagnostic::isError).toList());
        bad.addAll(SetupGroupCheck.check(files.get("haresources"), dir, answers, inv));
        if (!bad.isEmpty()) {
            bad.forEach(d -> spec.commandLine().getErr().println(d.format()));
            throw new UserException(ExitCodes.CONFIG, "setup: these answers make an invalid configuration (above, as"
                    + " it would be written); correct the option or answer; nothing written");
        }
    }

    private static Optional<SetupPrompts.Terminal> console() {
        Console c = System.console();
        if (c == null) {
            return Optional.empty();
        }
        return Optional.of(new SetupPrompts.Terminal() {
            @Override
            public String readLine(String prompt) {
                return c.readLine("%s", prompt);
            }

            @Override
            public void println(String line) {
                c.writer().println(line);
                c.writer().flush();
            }
        });
    }

    /** This node's copies of the four files now (absent ones left out). */
    private static Map<String, ConfigPush.FileCopy> readLocal(Path dir) throws UserException {
        Map<String, ConfigPush.FileCopy> now = new LinkedHashMap<>();
        for (String name : SetupFiles.NAMES) {
            Path p = dir.resolve(name);
            if (!Files.exists(p)) {
                continue;
            }
            try {
                now.put(name, new ConfigPush.FileCopy(name, Files.readAllBytes(p),
                        ConfigPushCommand.mode(Files.getPosixFilePermissions(p))));
            } catch (IOException e) {
                throw new UserException(ExitCodes.FAILURE, "setup: cannot read " + p + ": " + e.getMessage()
                        + "; nothing written");
            }
        }
        return now;
    }

    /**
     * Runs {@code hb config check} in this process on {@code dir} as node {@code me}.
     *
     * @return its exit code and everything it printed
     */
    static Map.Entry<Integer, String> checkHere(Path dir, String me, Path stateDir) {
        StringWriter sw = new StringWriter();
        CommandLine cl = new CommandLine(new ConfigCommand.Check());
        cl.setOut(new PrintWriter(sw, true));
        cl.setErr(new PrintWriter(sw, true));
        int code = cl.execute("--config-dir", dir.toString(), "--node-name", me, "--state-dir", stateDir.toString());
        return Map.entry(code, sw.toString());
    }

    /** Asks this node's daemon for its {@code jheartbeat.status/1} answer; empty if none answers yet. */
    static Optional<String> statusJson(Path stateDir) {
        try {
            ControlResponse r = ControlClient.request(new StateDirectory(stateDir).controlSocket(),
                    new ControlRequest.Status(true));
            return r.ok() ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Whether the two nodes' status answers each list the other as active. */
    static boolean seeEachOther(String mine, String theirs, String me, String peer) {
        return PairStatus.seesActive(mine, peer) && PairStatus.seesActive(theirs, me);
    }
}
