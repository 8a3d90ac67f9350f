package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.runtime.ConfigPush;
import org.jheartbeat.cli.runtime.SshTransport;
import org.jheartbeat.cli.setup.PairStatus;
import org.jheartbeat.cli.setup.ServiceStarter;
import org.jheartbeat.cli.setup.SetupPlan;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.time.Sleeper;

/**
 * The applying half of {@code hb setup}, once the plan says "write": stage the files on both nodes, check them
 * there, move them into place (the peer first, then this node), start the service on both, wait for the pair.
 * Until both checks pass, every failure removes both stages and leaves both configuration directories as they
 * were; so does a stop of the JVM (SIGTERM, SIGINT) in that time ({@link SetupStageGuard}).
 */
final class SetupApply {
    private final PrintWriter out;
    private final PrintWriter err;
    private final SshTransport ssh;
    private final Path dir;
    private final String rdir;
    private final String rstate;
    private final String me;
    private final String peer;
    private final String where;
    private final Sleeper sleeper;
    /** The peer's ssh for a start, which may take longer than a file's copy: {@link #START_TIMEOUT_S} at least. */
    private final SshTransport startSsh;
    /** How long a start over ssh may take at least, in seconds (a start here may take as long). */
    static final long START_TIMEOUT_S = 90;

    SetupApply(PrintWriter out, PrintWriter err, SshTransport ssh, Path dir, String rdir, String rstate, String me,
            String peer, String where, Sleeper sleeper) {
        this.out = out;
        this.err = err;
        this.ssh = ssh;
        this.dir = dir;
        this.rdir = rdir;
        this.rstate = rstate;
        this.me = me;
        this.peer = peer;
        this.where = where;
        this.sleeper = sleeper;
        this.startSsh = new SshTransport(ssh.ssh(), ssh.host(), Math.max(ssh.timeoutS(), START_TIMEOUT_S));
    }

    /**
     * Runs {@code script} on the peer. An ssh that cannot be run, is interrupted or does not finish within
     * {@code --ssh-timeout} is one {@code setup:} line that ends with what that leaves on the nodes.
     *
     * @param left what is left on the nodes, e.g. "nothing written on either node"
     */
    static SshTransport.Reply call(SshTransport ssh, String script, byte[] stdin, String left) throws UserException {
        try {
            return ssh.run(script, stdin);
        } catch (UserException e) {
            String m = e.getMessage();
            throw new UserException(e.exitCode(), "setup: " + m + (m.contains(" did not finish within ")
                    ? ", or wait longer with --ssh-timeout S" : "") + "; " + left);
        }
    }

    int run(Map<String, String> files, SetupPlan plan, Path stateDir, ServiceStarter starter, String remoteHb,
            int waitS) throws UserException, InterruptedException {
        Path stage = dir.resolve(SetupCommand.STAGE);
        String rstage = rdir + "/" + SetupCommand.STAGE;
        List<ConfigPush.FileCopy> copies = SetupPlan.copies(files);
        SetupStageGuard guard = SetupStageGuard.arm(stage, ssh, rstage, err, me, peer);
        try {
            stageAndCheck(stage, rstage, copies, stateDir, remoteHb);
        } finally {
            guard.close(); // before the move: a stop during it is left to the next run
        }
        installPeer(ConfigPush.changes(plan.peer()).stream().map(ConfigPush.Entry::name).toList());
        installHere(stage, ConfigPush.changes(plan.local()).stream().map(ConfigPush.Entry::name).toList());
        out.println("Files in place on " + me + ":" + dir + " and " + where + "; old copies kept as NAME.bak.");
        out.flush();
        return startAndWait(starter, stateDir, remoteHb, waitS);
    }

    /**
     * Stages the files on both nodes and checks them there; on any failure removes both stages (the message
     * says so, or what remains) and throws.
     */
    private void stageAndCheck(Path stage, String rstage, List<ConfigPush.FileCopy> copies, Path stateDir,
            String remoteHb) throws UserException {
        try {
            stageHere(stage, copies);
            stagePeer(copies);
            Map.Entry<Integer, String> here = SetupCommand.checkHere(stage, me, stateDir);
            if (here.getKey() != ExitCodes.OK) {
                err.print(indent(unstaged(here.getValue(), stage.toString(), dir.toString())));
                throw new UserException(ExitCodes.CONFIG, "setup: hb config check fails on " + me + " (above, the"
                        + " files as hb setup would write them); correct the answer a line comes from (--ucast,"
                        + " --serial, --group) or fix what it says on " + me + ", and run hb setup again; nothing"
                        + " moved into place");
            }
            out.println(me + ": hb config check passed");
            SshTransport.Reply there = call(ssh, remoteHb + " config check --config-dir "
                    + ConfigPush.shQuote(rstage) + " --node-name " + ConfigPush.shQuote(peer) + " --state-dir "
                    + ConfigPush.shQuote(rstate) + " 2>&1", new byte[0], "nothing moved into place");
            if (there.code() == 127) {
                throw new UserException(ExitCodes.FAILURE, "setup: '" + remoteHb + "' is not found on " + peer
                        + ": install the package there, or pass --remote-hb CMD; nothing moved into place");
            }
            if (there.code() == 255) {
                throw new UserException(ExitCodes.FAILURE, "setup: " + ssh.describeFailure(there, rdir, "--peer")
                        + "; nothing moved into place");
            }
            if (there.code() != ExitCodes.OK) {
                err.print(indent(unstaged(new String(there.out(), StandardCharsets.UTF_8), rstage, rdir)));
                throw new UserException(ExitCodes.CONFIG, "setup: hb config check fails on " + peer + " (above, the"
                        + " files as hb setup would write them); fix what it says on " + peer + " (e.g. install the"
                        + " group's service there) or correct the answer a line comes from, and run hb setup again;"
                        + " nothing moved into place");
            }
            out.println(peer + ": hb config check passed");
        } catch (UserException e) {
            Optional<String> left = cleanUp(stage);
            throw left.isEmpty() ? e : new UserException(e.exitCode(), e.getMessage() + "; " + left.get());
        } catch (RuntimeException e) {
            cleanUp(stage);
            throw e;
        }
    }

    /** Starts (or reloads) the service on both nodes and waits for the pair and its groups, within {@code waitS}. */
    int startAndWait(ServiceStarter starter, Path stateDir, String remoteHb, int waitS)
            throws UserException, InterruptedException {
        ServiceStarter.Result h = starter.startHere();
        ServiceStarter.Result p;
        try {
            p = starter.startOnPeer(startSsh);
        } catch (UserException e) {
            // ssh hung or could not be run: a failed start, reported with the others
            p = new ServiceStarter.Result(ServiceStarter.Outcome.FAILED, e.getMessage());
        }
        for (var e : List.of(Map.entry(me, h), Map.entry(peer, p))) {
            switch (e.getValue().outcome()) {
                case STARTED -> out.println(e.getKey() + ": service started");
                case NOT_INSTALLED -> out.println(e.getKey() + ": no jheartbeat service installed"
                        + (e.getValue().detail().isEmpty() ? "" : " (" + e.getValue().detail() + ")")
                        + "; start the daemon there yourself (hb daemon)");
                case FAILED -> err.println(e.getKey() + ": the service did not start: " + e.getValue().detail());
                default -> throw new IllegalStateException();
            }
        }
        if (h.outcome() == ServiceStarter.Outcome.FAILED || p.outcome() == ServiceStarter.Outcome.FAILED) {
            throw new UserException(ExitCodes.FAILURE, "setup: the files are in place and checked, but the service"
                    + " did not start (above); see the daemon's log there (journalctl -u jheartbeat), then start it"
                    + " (systemctl start jheartbeat)");
        }
        if (h.outcome() != ServiceStarter.Outcome.STARTED || p.outcome() != ServiceStarter.Outcome.STARTED) {
            out.println("Not waiting for the pair: start the daemon where it is not installed as a service.");
            return ExitCodes.OK;
        }
        out.flush();
        boolean paired = false;
        for (int i = 0; i < waitS; i++) {
            Optional<String> mine = SetupCommand.statusJson(stateDir);
            if (!paired && mine.isPresent() && PairStatus.seesActive(mine.get(), peer)) {
                SshTransport.Reply r = call(ssh, remoteHb + " status --json --state-dir "
                        + ConfigPush.shQuote(rstate), new byte[0], "the files are in place on both nodes and the"
                        + " services started; see hb status on " + peer);
                paired = r.code() == 0 && SetupCommand.seeEachOther(mine.get(), new String(r.out(),
                        StandardCharsets.UTF_8), me, peer);
            }
            if (paired && mine.isPresent()) {
                // a pair that sees itself can still fail to start its group: wait for it to run somewhere
                PairStatus.Groups g = PairStatus.groups(mine.get());
                if (g.settled()) {
                    out.println(me + " and " + peer + " see each other. What runs where (hb status):");
                    printStatus(stateDir);
                    if (!g.problems().isEmpty()) {
                        throw new UserException(ExitCodes.FAILURE, "setup: the pair runs with the new files, but "
                                + String.join("; ", g.problems()) + " (hb status above; the daemon's log says more)");
                    }
                    return ExitCodes.OK;
                }
            }
            sleeper.pause(Duration.ofSeconds(1));
        }
        if (paired) {
            printStatus(stateDir);
            throw new UserException(ExitCodes.FAILURE, "setup: " + me + " and " + peer + " see each other, but the"
                    + " groups are not running after " + waitS + " s (hb status above); see the daemon's log, or"
                    + " give the services more time with --wait");
        }
        throw new UserException(ExitCodes.FAILURE, "setup: " + me + " and " + peer + " do not see each other after "
                + waitS + " s; the services run with the new files: check the links (the ucast/serial lines of ha.cf,"
                + " cables, a firewall on UDP 694) and hb status on both nodes");
    }

    private void printStatus(Path stateDir) throws UserException {
        try {
            out.print(StatusCommand.fetch(new StateDirectory(stateDir).controlSocket(), false, out));
        } catch (IOException e) {
            out.println("(hb status: " + e.getMessage() + ")");
        }
        out.flush();
    }

    private void stageHere(Path stage, List<ConfigPush.FileCopy> copies) throws UserException {
        try {
            deleteTree(stage);
            Files.createDirectory(stage, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            for (ConfigPush.FileCopy f : copies) {
                Path p = stage.resolve(f.name());
                // created with its final mode: the key is never readable by others, not even for a moment
                Files.createFile(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                        f.mode() == SetupPlan.AUTHKEYS_MODE ? "rw-------" : "rw-r--r--")));
                Files.write(p, f.content());
            }
            if (Files.isDirectory(dir.resolve("resource.d"))) {
                // the check looks for the group's scripts next to haresources
                Files.createSymbolicLink(stage.resolve("resource.d"), Path.of("../resource.d"));
            }
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "setup: cannot write " + stage + ": " + e.getMessage()
                    + "; nothing moved into place");
        }
    }

    private void stagePeer(List<ConfigPush.FileCopy> copies) throws UserException {
        String q = ConfigPush.shQuote(rdir);
        SshTransport.Reply r = call(ssh, "cd " + q + " || exit 3\nrm -rf " + SetupCommand.STAGE + "\nmkdir -m 700 "
                + SetupCommand.STAGE + " || exit 4\n[ ! -d resource.d ] || ln -s ../resource.d " + SetupCommand.STAGE
                + "/resource.d\n", new byte[0], "nothing moved into place");
        if (r.code() != 0) {
            throw new UserException(ExitCodes.FAILURE, "setup: staging on " + peer + " failed: "
                    + ssh.describeFailure(r, rdir, "--peer") + "; nothing moved into place");
        }
        String rstage = rdir + "/" + SetupCommand.STAGE;
        for (ConfigPush.FileCopy f : copies) {
            SshTransport.Reply w = call(ssh, ConfigPush.writeScript(rstage, f.name(), f.content().length, f.mode()),
                    f.content(), "nothing moved into place");
            if (w.code() != 0) {
                throw new UserException(ExitCodes.FAILURE, "setup: sending " + f.name() + " to " + peer + " failed: "
                        + ssh.describeFailure(w, rstage, "--peer") + "; nothing moved into place");
            }
        }
    }

    private void installPeer(List<String> names) throws UserException {
        StringBuilder sb = new StringBuilder("set -e\ncd " + ConfigPush.shQuote(rdir) + "\n");
        for (String n : names) {
            String q = ConfigPush.shQuote(n);
            sb.append("if [ -e ").append(q).append(" ]; then rm -f ").append(q).append(".bak; ln ").append(q).append(' ')
                    .append(q).append(".bak 2>/dev/null || cp -p ").append(q).append(' ').append(q).append(".bak; fi\n");
        }
        for (String n : names) {
            sb.append("mv -f ").append(SetupCommand.STAGE).append('/').append(ConfigPush.shQuote(n)).append(' ')
                    .append(ConfigPush.shQuote(n)).append('\n');
        }
        sb.append("rm -rf ").append(SetupCommand.STAGE).append("\nsync . 2>/dev/null || true\n");
        SshTransport.Reply r;
        try {
            r = call(ssh, sb.toString(), new byte[0], "this node's files are unchanged; the move on " + peer
                    + " may be partly done: check " + where + ", then run hb setup again");
        } catch (UserException e) {
            cleanUp(dir.resolve(SetupCommand.STAGE));
            throw e;
        }
        if (r.code() != 0) {
            cleanUp(dir.resolve(SetupCommand.STAGE));
            throw new UserException(ExitCodes.FAILURE, "setup: moving the files into place on " + peer + " failed: "
                    + ssh.describeFailure(r, rdir, "--peer") + "; this node's files are unchanged; check " + where);
        }
    }

    private void installHere(Path stage, List<String> names) throws UserException {
        try {
            for (String n : names) {
                Path target = dir.resolve(n);
                if (Files.exists(target)) {
                    Path bak = dir.resolve(n + ".bak");
                    Files.deleteIfExists(bak);
                    Files.copy(target, bak, StandardCopyOption.COPY_ATTRIBUTES);
                }
                try {
                    Files.move(stage.resolve(n), target, StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                    Files.move(stage.resolve(n), target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            deleteTree(stage);
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "setup: moving the files into place on " + me + " failed: "
                    + e.getMessage() + "; " + peer + " has the new files already: fix it and run hb setup again");
        }
    }

    /**
     * Removes both stages, the peer's with a call bounded by {@link SetupStageGuard#REMOVE_TIMEOUT_S} (after an
     * ssh that hung, another full wait would only delay the message).
     *
     * @return what remains, for the failure's one message; empty when both are gone
     */
    private Optional<String> cleanUp(Path stage) {
        return SetupStageGuard.removeBoth(stage, new SshTransport(ssh.ssh(), ssh.host(), Math.min(ssh.timeoutS(),
                SetupStageGuard.REMOVE_TIMEOUT_S)), rdir + "/" + SetupCommand.STAGE, me, peer);
    }

    /** Removes {@code p} and everything under it (links themselves, not what they point to); nothing if absent. */
    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }

    /**
     * {@code hb config check}'s output on a stage, with the stage's path replaced by the configuration
     * directory's: the user never sees {@code DIR/.hb-setup}, which is gone when the message is read, and a
     * script the check looked for in {@code .hb-setup/resource.d} (a link) is looked for in {@code DIR/resource.d}.
     */
    static String unstaged(String checkOutput, String stage, String dir) {
        return checkOutput.replace(stage + "/", dir + "/").replace(stage, dir);
    }

    private static String indent(String text) {
        StringBuilder sb = new StringBuilder();
        text.lines().forEach(l -> sb.append("  ").append(l).append('\n'));
        return sb.toString();
    }
}
