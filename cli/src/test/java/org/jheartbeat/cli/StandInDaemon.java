package org.jheartbeat.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.control.ControlServer;
import org.jheartbeat.core.state.StateDirectory;

/** A stand-in daemon for command tests: a real {@link ControlServer} with a scripted handler. */
final class StandInDaemon {
    private StandInDaemon() {
    }

    /**
     * Runs {@code hb ARGS --state-dir=DIR/state} while a control server on that state directory answers every
     * request with {@code daemon}, recording each request in {@code asked}.
     */
    static HbRun against(Path dir, List<ControlRequest> asked, Function<ControlRequest, ControlResponse> daemon,
                         String... args) throws Exception {
        Path state = dir.resolve("state");
        Files.createDirectories(state);
        try (ControlServer s = new ControlServer(new StateDirectory(state).controlSocket(), r -> {
            synchronized (asked) {
                asked.add(r);
            }
            return daemon.apply(r);
        })) {
            s.start();
            String[] all = new String[args.length + 1];
            System.arraycopy(args, 0, all, 0, args.length);
            all[args.length] = "--state-dir=" + state;
            return HbRun.hb(all);
        }
    }
}
