package org.jheartbeat.cli;

import java.io.PrintWriter;
import java.io.Writer;

/**
 * The training run of the client commands' class-data sharing archive ({@code packaging/src/bin/cds-archive},
 * through the launcher's {@code HB_CDS=dump-client:FILE}): in one JVM, the calls admins and scripts make in
 * loops, by {@link Main#direct} as {@code hb status}, {@code cl_status} and the moves ({@code hb standby},
 * {@code takeover}, {@code failback}: only where no daemon runs) run them, so that the archive the JVM
 * writes at exit holds the classes of all of them (a class missing from it makes the JVM open and index the
 * 10 MB jar: ~15 ms of CPU). Answers are discarded. Not an {@code hb} command.
 */
public final class ClientTraining {
    private ClientTraining() {
    }

    /**
     * @param args the state directory of a live daemon, the name of a node of its cluster, and a state directory
     *             where no daemon runs (its error path)
     */
    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: ClientTraining STATE_DIR NODE NO_DAEMON_STATE_DIR");
            System.exit(64);
        }
        String state = args[0];
        String node = args[1];
        PrintWriter sink = new PrintWriter(Writer.nullWriter());
        String[][] calls = {
            {"status", "--state-dir", state},
            {"status", "--state-dir", state, "--json"},
            {"status", "--state-dir", args[2]},
            {"cl-status", "--state-dir", state, "--", "hbstatus"},
            {"cl-status", "--state-dir", state, "--", "listnodes"},
            {"cl-status", "--state-dir", state, "--", "nodestatus", node},
            {"cl-status", "--state-dir", state, "--", "-m", "nodestatus", node},
            {"cl-status", "--state-dir", state, "--", "nodestatus", node + "-not-in-the-cluster"},
            {"cl-status", "--state-dir", state, "--", "rscstatus"},
            {"cl-status", "--state-dir", state, "--", "bogus"},
            {"cl-status", "--state-dir", args[2], "--", "hbstatus"},
            // the moves: never asked of the live daemon (a hand-over would change the cluster), only where none runs
            {"standby", "--state-dir", args[2]},
            {"standby", "local", "--state-dir=" + args[2], "--timeout", "5"},
            {"takeover", "foreign", "--timeout=5", "--state-dir", args[2]},
            {"failback", "--state-dir", args[2]},
        };
        for (String[] call : calls) {
            Main.direct(call, sink, sink);
        }
    }
}
