package org.jheartbeat.core.control;

import java.nio.file.Path;

/** Starts and closes a {@link ControlServer} on {@code args[0]}; run under strace by {@link UnixSocketFilesTest}. */
public final class SocketBindMain {
    private SocketBindMain() {
    }

    public static void main(String[] args) throws Exception {
        try (ControlServer s = new ControlServer(Path.of(args[0]), r -> ControlResponse.ok(""))) {
            s.start();
        }
        System.exit(0);
    }
}
