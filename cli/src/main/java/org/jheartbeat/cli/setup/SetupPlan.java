package org.jheartbeat.cli.setup;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jheartbeat.cli.runtime.ConfigPush;
import org.jheartbeat.core.config.AuthKeysParser;

/**
 * What {@code hb setup} does with the files both nodes already have: the pure decision between "nothing to
 * change" (both nodes hold exactly these files, modes included), "write" (files are missing, or differ and
 * {@code --force} was given) and "refuse" (a node holds a different file and no {@code --force}: a configured
 * pair is never overwritten by accident). The comparison and its diff are {@code hb config push}'s
 * ({@link ConfigPush#plan}), so authkeys' keys are never printed.
 *
 * @param decision what to do
 * @param local    per file: this node's copy against the new one
 * @param peer     per file: the peer's copy against the new one
 */
public record SetupPlan(Decision decision, List<ConfigPush.Entry> local, List<ConfigPush.Entry> peer) {
    /** Mode of authkeys (it holds the key: only root reads it, as the daemon requires). */
    public static final int AUTHKEYS_MODE = 0600;
    /** Mode of the other files. */
    public static final int FILE_MODE = 0644;

    /** The outcome. */
    public enum Decision { NOTHING_TO_CHANGE, WRITE, REFUSE }

    public SetupPlan {
        local = List.copyOf(local);
        peer = List.copyOf(peer);
    }

    /**
     * A node's configuration directory as every message of {@code hb setup} names it: {@code node2
     * 198.18.1.2:/etc/ha.d}, the node, then where ssh reaches it, so that a file reads {@code node2
     * 198.18.1.2:/etc/ha.d/ha.cf}; {@code node2:/etc/ha.d} when ssh reaches it by its name.
     *
     * @param node the node's name
     * @param host the address or name ssh reaches it at ({@code --peer})
     * @param dir  its configuration directory there
     */
    public static String where(String node, String host, String dir) {
        return host.equals(node) ? node + ":" + dir : node + " " + host + ":" + dir;
    }

    /** The new files as {@code hb config push} carries them, with the modes {@code hb setup} gives them. */
    public static List<ConfigPush.FileCopy> copies(Map<String, String> files) {
        List<ConfigPush.FileCopy> out = new ArrayList<>();
        files.forEach((name, text) -> out.add(new ConfigPush.FileCopy(name, text.getBytes(StandardCharsets.UTF_8),
                name.equals(AuthKeysParser.FILE_NAME) ? AUTHKEYS_MODE : FILE_MODE)));
        return out;
    }

    /**
     * Decides.
     *
     * @param files     the new files (name → text), from {@link SetupFiles#render}
     * @param localNow  this node's copies now, by name (absent: no such file)
     * @param peerNow   the peer's copies now, by name
     * @param force     {@code --force}: replace different files
     */
    public static SetupPlan decide(Map<String, String> files, Map<String, ConfigPush.FileCopy> localNow,
            Map<String, ConfigPush.FileCopy> peerNow, boolean force) {
        List<ConfigPush.FileCopy> copies = copies(files);
        List<ConfigPush.Entry> local = ConfigPush.plan(copies, localNow);
        List<ConfigPush.Entry> peer = ConfigPush.plan(copies, peerNow);
        Decision d;
        if (ConfigPush.changes(local).isEmpty() && ConfigPush.changes(peer).isEmpty()) {
            d = Decision.NOTHING_TO_CHANGE;
        } else if (!force && (differing(local) || differing(peer))) {
            d = Decision.REFUSE;
        } else {
            d = Decision.WRITE;
        }
        return new SetupPlan(d, local, peer);
    }

    private static boolean differing(List<ConfigPush.Entry> plan) {
        return plan.stream().anyMatch(e -> e.change() == ConfigPush.Change.CHANGED);
    }

    /** The files that differ from the new ones on either node (to replace only with {@code --force}). */
    public List<String> differingFiles(String nodeName, String peerName) {
        List<String> out = new ArrayList<>();
        local.stream().filter(e -> e.change() == ConfigPush.Change.CHANGED).forEach(e -> out.add(nodeName + ":"
                + e.name()));
        peer.stream().filter(e -> e.change() == ConfigPush.Change.CHANGED).forEach(e -> out.add(peerName + ":"
                + e.name()));
        return out;
    }

    /**
     * Per node and file: {@code unchanged}, {@code new} or the diff from the file there now ({@code ---}) to
     * what {@code hb setup} writes ({@code +++}), as {@code hb config push} shows it.
     *
     * @param localWhere this node's directory as the user knows it, e.g. {@code node1:/etc/ha.d}
     * @param peerWhere  the peer's, e.g. {@code node2 192.168.1.2:/etc/ha.d} ({@link #where})
     */
    public List<String> render(String localWhere, String peerWhere) {
        List<String> out = new ArrayList<>();
        render(local, localWhere, out);
        render(peer, peerWhere, out);
        return out;
    }

    private static void render(List<ConfigPush.Entry> plan, String where, List<String> out) {
        for (ConfigPush.Entry e : plan) {
            String head = String.format("  %-32s ", where + "/" + e.name());
            switch (e.change()) {
                case UNCHANGED -> out.add(head + "unchanged");
                case NEW -> out.add(head + "new (mode " + e.local().modeString() + ")");
                case CHANGED -> {
                    String mode = e.modeDiffers() ? " (mode " + e.remote().orElseThrow().modeString() + " -> "
                            + e.local().modeString() + ")" : "";
                    out.add(head + "DIFFERS" + mode + (e.diff().isEmpty() ? " (line ends or mode only)" : ":"));
                    if (!e.diff().isEmpty()) {
                        out.add("--- " + where + "/" + e.name() + " (now)");
                        out.add("+++ " + e.name() + " (hb setup)");
                        out.addAll(e.diff());
                    }
                }
                default -> throw new IllegalStateException(e.change().toString());
            }
        }
    }
}
