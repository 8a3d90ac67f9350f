package org.jheartbeat.cli.command;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.director.runtime.ControlSocket;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb lvs reload [CONFIG]}: asks the running director, over its control socket, to re-read its
 * ldirectord.cf and apply only what changed; prints the director's answer.
 */
@Command(name = "reload", mixinStandardHelpOptions = true,
        description = "Make the running director re-read its ldirectord.cf and apply only what changed.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:applied", "2:the file has errors (the running config is kept)",
            "3:no director runs for this config", "64:usage error"})
public final class LvsReloadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "CONFIG", description = "The director's config.")
    String file;

    @Option(names = "--socket", paramLabel = "PATH", description = "The director's control socket.")
    Path socket;

    @Override
    public Integer call() throws Exception {
        Path sock = socket != null ? socket : LvsCommand.socketFor(LvsCommand.resolveConfig(file));
        String answer;
        try {
            if (!Files.exists(sock)) {
                // connecting to a missing Unix socket fails with a bare "No such file or directory"
                throw new java.nio.file.NoSuchFileException(sock.toString());
            }
            answer = ControlSocket.request(sock, "reload", 60_000);
        } catch (java.net.ConnectException | java.nio.file.NoSuchFileException e) {
            throw new UserException(ExitCodes.NOT_RUNNING, "no director runs for this config (no socket " + sock
                    + "); start it with hb lvs daemon CONFIG, or give a running director's --socket");
        }
        String body = answer.substring(answer.indexOf('\n') + 1);
        spec.commandLine().getErr().print(body);
        spec.commandLine().getErr().flush();
        if (answer.startsWith("OK\n")) {
            return ExitCodes.OK;
        }
        spec.commandLine().getErr().println("hb: " + answer.lines().findFirst().orElse("").replaceFirst("^ERR ", ""));
        return ExitCodes.CONFIG;
    }
}
