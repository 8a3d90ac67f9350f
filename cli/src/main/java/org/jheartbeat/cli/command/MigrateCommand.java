package org.jheartbeat.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.migrate.MigrationCheck;
import org.jheartbeat.cli.migrate.MigrationFinding;
import org.jheartbeat.core.control.JsonText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hb migrate ...}: moving a Heartbeat 3.0.6 pair to jheartbeat. */
@Command(name = "migrate", description = "Moving a Heartbeat 3.0.6 pair to jheartbeat.", mixinStandardHelpOptions = true,
        subcommands = {MigrateCommand.Check.class})
public final class MigrateCommand extends CommandGroup {
    /** {@code hb migrate check}: prints {@link MigrationCheck}'s findings. */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Read a Heartbeat 3.0.6 /etc/ha.d (ha.cf, authkeys, haresources) and ldirectord.cf"
                    + " (DIR/ldirectord.cf, DIR/conf/ldirectord.cf or /etc/ldirectord.cf) and print what jheartbeat"
                    + " does differently, one line each: FILE:LINE: SEVERITY: what -> what to do.",
                "Severities: info (ignored or mapped), changes behaviour, unsafe, refused (jheartbeat will not start"
                        + " so). Changes nothing, runs nothing unless --probe."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:nothing unsafe or refused (info and changes-behaviour findings may be printed)",
                    "1:at least one finding is unsafe or refused", "2:a file is missing or does not parse",
                    "64:usage error"})
    public static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        ConfigDirOption configDir;

        @Option(names = "--json", description = "Print the findings as one JSON object.")
        boolean json;

        @Option(names = "--probe", description = "Run 'SCRIPT status' for each resource script (it executes them,"
                + " as root) instead of only looking for a status case in its text.")
        boolean probe;

        @Option(names = "--init-dir", paramLabel = "DIR", defaultValue = "/etc/init.d", hidden = true)
        Path initDir;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Path dir = configDir.path();
            MigrationCheck.Report r = MigrationCheck.run(dir, MigrationCheck.ldirectordCandidates(dir), initDir,
                    probe ? Optional.of(new org.jheartbeat.core.exec.OsProcessRunner()) : Optional.empty());
            if (!r.parseErrors().isEmpty()) {
                r.parseErrors().forEach(d -> err.println(d.format()));
                err.println("hb migrate check: " + r.parseErrors().size() + " error(s) that are not a difference"
                        + " of jheartbeat's: fix them (Heartbeat 3.0.6 would not run with them either) and check"
                        + " again");
                return ExitCodes.CONFIG;
            }
            if (json) {
                out.println(JsonText.write(g -> {
                    g.writeStartObject();
                    g.writeStringField("config_dir", dir.toString());
                    g.writeStringField("ldirectord", r.ldirectord().map(Path::toString).orElse(null));
                    g.writeArrayFieldStart("findings");
                    for (MigrationFinding f : r.findings()) {
                        g.writeStartObject();
                        g.writeStringField("file", f.file().toString());
                        g.writeNumberField("line", f.line());
                        g.writeStringField("severity", f.severity().word());
                        g.writeStringField("message", f.message());
                        g.writeStringField("todo", f.todo());
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                    g.writeBooleanField("fails", r.fails());
                    g.writeEndObject();
                }));
            } else {
                r.findings().forEach(f -> out.println(f.format()));
                long bad = r.findings().stream().filter(f -> f.severity().fails()).count();
                out.println(dir + ": " + r.findings().size() + " finding(s), " + bad + " unsafe or refused"
                        + r.ldirectord().map(p -> "; read " + p).orElse("; no ldirectord.cf"));
            }
            return r.fails() ? ExitCodes.FAILURE : ExitCodes.OK;
        }
    }
}
