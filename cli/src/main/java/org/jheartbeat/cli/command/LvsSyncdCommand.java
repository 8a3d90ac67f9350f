package org.jheartbeat.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.SyncSettings;
import org.jheartbeat.director.userspace.sync.TemplateReceiver;
import org.jheartbeat.director.userspace.sync.TemplateSync;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb lvs syncd [CONFIG]}: the standby side of the user-space director's template sync, run on both
 * nodes of a director pair (a unit, beside the cluster): it receives the active director's persistence
 * templates on this node's {@code syncpeer} address and keeps them in
 * {@code /var/lib/jheartbeat/lvs-CONFIGNAME-ADDR.templates}, which this node's director reads when it takes
 * over. On the active node it receives nothing (the director sends to the other node only).
 */
@Command(name = "syncd", mixinStandardHelpOptions = true,
        description = "Receive the active user-space director's persistence templates (ldirectord.cf syncdaemon,"
                + " syncpeer, syncauthkeys) and keep them for this node's director's next start.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "1:cannot bind or read the authkeys", "2:invalid configuration",
            "64:usage error"})
public final class LvsSyncdCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "CONFIG", description = "The director's ldirectord.cf.")
    String file;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "Where the templates are kept (default"
            + " /var/lib/jheartbeat).")
    Path stateDir;

    @Option(names = "--backend", paramLabel = "auto|ipvs|userspace", defaultValue = "${env:HB_LVS_BACKEND:-auto}",
            description = "ipvs: start the kernel's backup sync daemon unless a sync daemon runs here, and exit;"
                    + " userspace: receive the templates until stopped; auto: ipvs when this kernel has it"
                    + " (default: $HB_LVS_BACKEND, else ${DEFAULT-VALUE}).")
    String backend;

    @Option(names = "--ipvsadm", paramLabel = "PROGRAM", defaultValue = "ipvsadm",
            description = "The ipvsadm program (default: ${DEFAULT-VALUE} from PATH).")
    String ipvsadm;

    @Override
    public Integer call() throws Exception {
        Path path = LvsCommand.resolveConfig(file);
        PrintWriter err = spec.commandLine().getErr();
        java.util.Optional<LdirectordConfig> loaded = LvsCommand.load(path, err, "syncd");
        if (loaded.isEmpty()) {
            return ExitCodes.CONFIG;
        }
        SyncSettings sync = loaded.get().globals().sync().orElseThrow(() -> new UserException(ExitCodes.CONFIG,
                path + ": no syncdaemon; add syncdaemon = IF and syncpeer = ADDR ADDR to sync the templates"));
        String b = backend == null ? "auto" : backend.strip();
        if (b.equals("auto")) {
            b = org.jheartbeat.director.userspace.KernelIpvs.present() ? "ipvs" : "userspace";
        }
        if (b.equals("ipvs")) {
            // the kernel's backup daemon receives on its own: started once, then nothing to run here
            try {
                boolean started = new org.jheartbeat.director.table.IpvsadmBackend(ipvsadm, IpvsadmBackendRunner.OS, 1,
                        java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(10)).syncBoot(sync);
                err.println(started ? "hb: the backup sync daemon runs on " + sync.iface()
                        : "hb: a sync daemon runs here already; nothing to do");
                return ExitCodes.OK;
            } catch (org.jheartbeat.director.table.BackendException e) {
                throw new UserException(ExitCodes.FAILURE, "cannot start the backup sync daemon: " + e.getMessage());
            }
        } else if (!b.equals("userspace")) {
            throw new UserException(ExitCodes.USAGE, "--backend " + b + ": unknown; use auto, ipvs or userspace");
        }
        TemplateSync.Link link;
        MessageAuthenticator auth;
        try {
            link = TemplateSync.link(sync.peers(), TemplateSync::isLocal);
            auth = TemplateSync.authenticator(sync.authKeys());
        } catch (IllegalArgumentException e) {
            throw new UserException(ExitCodes.CONFIG, path + ": " + e.getMessage());
        }
        Path keep = TemplateSync.stateFile(stateDir != null ? stateDir : TemplateSync.STATE_DIR, sync.configName(),
                link.local());
        LvsLogging.configure(path, "none", false);
        TemplateReceiver receiver;
        try {
            receiver = new TemplateReceiver(link, SyncSettings.TEMPLATE_PORT, auth, sync.syncId(), keep,
                    org.jheartbeat.core.time.WallClocks.system());
        } catch (java.io.IOException e) {
            throw new UserException(ExitCodes.FAILURE, "cannot receive on " + link.local().getHostAddress() + " UDP "
                    + SyncSettings.TEMPLATE_PORT + ": " + e.getMessage());
        }
        org.slf4j.LoggerFactory.getLogger(TemplateReceiver.class).info("Template sync: receiving on {} UDP {} from {};"
                + " kept in {}", link.local().getHostAddress(), SyncSettings.TEMPLATE_PORT, link.others(), keep);
        Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            receiver.close();
            try {
                main.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "lvs-syncd-shutdown"));
        receiver.run();
        LvsLogging.close();
        return ExitCodes.OK;
    }
}
