package org.jheartbeat.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.LdirectordParser;
import org.jheartbeat.director.config.LdirectordShow;
import org.jheartbeat.director.runtime.CheckFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb lvs check FILE}: reads an ldirectord.cf as the director would ({@link LvsCommand#read}) and
 * prints each problem as {@code file:line: message}, or a one-line summary when it is valid; with {@code --show}
 * or {@code --json} also what the file was read as ({@link LdirectordShow}), alone on standard output.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Check an ldirectord.cf; print every problem as file:line: message.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:valid (warnings may be printed)", "2:at least one error", "64:usage error"})
public final class LvsCheckCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE",
            description = "The config (a bare name is looked up in /etc/ha.d and /etc/ha.d/conf;"
                    + " default ldirectord.cf).")
    String file;

    @Option(names = "--show", description = "Print what the file was read as: the globals, each virtual with every"
            + " default applied, each real with its resolved address, port, weight, method and check (ldirectord's -d"
            + " prints its own reading); problems and the summary go to standard error.")
    boolean show;

    @Option(names = "--json", description = "As --show, in JSON.")
    boolean json;

    @Option(names = "--no-topology", description = "Do not check the LVS-DR topology against this host's addresses"
            + " and routes (when checking a file on another machine than the director).")
    boolean noTopology;

    /** Times the parse for the report; tests may replace it. */
    MonotonicClock clock = MonotonicClock.system();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path path = LvsCommand.resolveConfig(file);
        long t0 = clock.nanoTime();
        LdirectordParser.Result r = LvsCommand.read(path, CheckFactory.standard());
        long ms = (clock.nanoTime() - t0) / 1_000_000;
        boolean showing = show || json;
        for (ConfigDiagnostic d : r.diagnostics()) {
            (d.isError() || showing ? err : out).println(d.format());
        }
        long n = r.diagnostics().stream().filter(ConfigDiagnostic::isError).count();
        if (n > 0) {
            err.println(n + " error(s) in " + path + "; fix them before starting the director.");
            return ExitCodes.CONFIG;
        }
        LdirectordConfig c = r.config().orElseThrow();
        if (!noTopology) {
            // LVS-DR's topology, seen from this host: a gate real off the VIP's segment is a warning, not an error
            for (ConfigDiagnostic d : DrTopologyProbe.host().warnings(c)) {
                (showing ? err : out).println(d.format());
            }
        }
        if (json) {
            out.println(LdirectordShow.json(c));
        } else if (show) {
            out.print(LdirectordShow.text(c));
            out.flush();
        }
        (showing ? err : out).println(path + ": configuration OK (" + c.virtuals().size() + " virtual service(s), "
                + c.virtuals().stream().mapToInt(v -> v.reals().size()).sum() + " real server(s), read in " + ms
                + " ms)");
        return ExitCodes.OK;
    }
}
