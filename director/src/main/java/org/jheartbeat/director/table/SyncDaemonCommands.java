package org.jheartbeat.director.table;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.director.config.SyncSettings;

/**
 * The ipvsadm commands of the kernel's connection-sync daemon for a director's role (ipvsadm(8) 1.31:
 * {@code --start-daemon master|backup [--mcast-interface IF] [--syncid N]}, {@code --stop-daemon
 * master|backup}). Pure.
 *
 * <p>Takeover: the backup daemon is stopped (this node no longer receives) and the master is started, after
 * stopping a master left by a director that did not stop cleanly (the kernel refuses a second one, "Daemon
 * has already run"). Standby: the master is stopped and a backup started, so the node that gave the
 * director up receives the other's connections. A stop of a daemon that is not running fails with "No
 * daemon is running", which is expected here and not an error.
 */
public final class SyncDaemonCommands {
    /** ipvsadm's answer to stopping a daemon that does not run. */
    public static final String NOT_RUNNING = "No daemon is running";

    private SyncDaemonCommands() {
    }

    /** The commands (ipvsadm's arguments) of a takeover: stop backup, stop master, start master. */
    public static List<List<String>> active(SyncSettings sync) {
        return List.of(List.of("--stop-daemon", "backup"), List.of("--stop-daemon", "master"), start("master", sync));
    }

    /** The commands of a standby: stop master, stop backup, start backup. */
    public static List<List<String>> standby(SyncSettings sync) {
        return List.of(List.of("--stop-daemon", "master"), List.of("--stop-daemon", "backup"), start("backup", sync));
    }

    /** The command of a node that boots as the standby: start the backup daemon. */
    public static List<String> boot(SyncSettings sync) {
        return start("backup", sync);
    }

    private static List<String> start(String state, SyncSettings sync) {
        List<String> a = new ArrayList<>(List.of("--start-daemon", state, "--mcast-interface", sync.iface()));
        sync.syncId().ifPresent(id -> a.addAll(List.of("--syncid", Integer.toString(id))));
        return List.copyOf(a);
    }
}
