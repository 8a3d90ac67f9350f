package org.jheartbeat.cli.setup;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.cli.config.JheartbeatYaml;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.AuthKeysParser;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.HaCfParser;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.NodeName;

/**
 * The pure kernel of {@code hb setup}: answers in, the texts of ha.cf, authkeys, haresources and
 * jheartbeat.yaml out. Both nodes get the same four files (Heartbeat's shared ha.cf: a {@code ucast} line
 * naming a node's own address is skipped there, see {@code hb config check}), and the texts depend only on the
 * answers, not on which node asks: nodes and addresses are written in name order, so a re-run from either node
 * with the same answers writes the same bytes. The timings are ha.cf.example's (keepalive 2 s, warntime 10 s,
 * deadtime 20 s, initdead 60 s); the admin tunes them in ha.cf afterwards.
 */
public final class SetupFiles {
    /** The files {@code hb setup} writes, in the order it shows and writes them. */
    public static final List<String> NAMES = List.of(HaCfParser.FILE_NAME, AuthKeysParser.FILE_NAME,
            HaresourcesParser.FILE_NAME, JheartbeatYaml.NAME);
    /** Bytes of a new random sha1 key: 20, the size of a SHA-1 digest (40 hex digits). */
    static final int KEY_BYTES = 20;
    private static final Pattern SHA1_KEY = Pattern.compile("(?m)^\\s*(\\d+)\\s+sha1\\s+(\\S.*?)\\s*$");
    private static final Pattern AUTH = Pattern.compile("(?m)^\\s*auth\\s+(\\d+)\\s*$");

    private SetupFiles() {
    }

    /** A new random key for authkeys: {@value #KEY_BYTES} bytes from {@code random}, as hex. */
    public static String randomKey(SecureRandom random) {
        byte[] b = new byte[KEY_BYTES];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /**
     * The sha1 key an existing authkeys signs with, so that a re-run writes the same authkeys (a new random key
     * would make every re-run a change). Empty if the text has no {@code auth N} with an {@code N sha1 KEY} line,
     * or the key is shorter than {@link AuthKeysParser#MIN_KEY_BYTES}.
     */
    public static Optional<String> existingKey(String authkeys) {
        Matcher auth = AUTH.matcher(authkeys);
        if (!auth.find()) {
            return Optional.empty();
        }
        Matcher m = SHA1_KEY.matcher(authkeys);
        while (m.find()) {
            if (m.group(1).equals(auth.group(1)) && m.group(2).length() >= AuthKeysParser.MIN_KEY_BYTES) {
                return Optional.of(m.group(2));
            }
        }
        return Optional.empty();
    }

    /**
     * The four files for {@code a}, by name in {@link #NAMES} order.
     *
     * @return file name → text (each ends with a newline)
     */
    public static Map<String, String> render(SetupAnswers a) {
        List<String> names = new ArrayList<>(List.of(a.node(), a.peer()));
        names.sort(null);
        StringBuilder ha = new StringBuilder();
        ha.append("# ha.cf of the pair ").append(names.get(0)).append(" + ").append(names.get(1))
                .append(", written by hb setup; the same file on both nodes.\n")
                .append("# ha.cf.example explains each line; hb config check checks it.\n");
        if (!a.logfile().isEmpty()) {
            ha.append("logfile ").append(a.logfile()).append('\n');
        }
        ha.append("logfacility daemon\n");
        ha.append("keepalive 2\nwarntime 10\ndeadtime 20\ninitdead 60\n");
        if (!a.ucast().isEmpty()) {
            ha.append("udpport 694\n");
            boolean nodeFirst = a.node().equals(names.get(0));
            for (SetupAnswers.UcastLink l : a.ucast()) {
                // each node skips the line that names its own address
                List<String> both = nodeFirst ? List.of(l.localAddress(), l.peerAddress())
                        : List.of(l.peerAddress(), l.localAddress());
                for (String addr : both) {
                    ha.append("ucast ").append(l.iface()).append(' ').append(addr).append('\n');
                }
            }
        }
        if (!a.serial().isEmpty()) {
            ha.append("baud ").append(a.baud()).append('\n');
            a.serial().forEach(s -> ha.append("serial ").append(s).append('\n'));
        }
        ha.append("auto_failback on\n");
        names.forEach(n -> ha.append("node ").append(n).append('\n'));
        ha.append("crm no\n");

        Map<String, String> files = new LinkedHashMap<>();
        files.put(HaCfParser.FILE_NAME, ha.toString());
        files.put(AuthKeysParser.FILE_NAME, "auth 1\n1 sha1 " + a.authKey() + "\n");
        files.put(HaresourcesParser.FILE_NAME, "# resource groups: NODE RESOURCE... (the node that runs the group"
                + " when both are up), written by hb setup\n" + a.group().strip() + "\n");
        files.put(JheartbeatYaml.NAME, "# jheartbeat-only settings (docs/reference.md, jheartbeat.yaml), written by"
                + " hb setup\nmonitor:\n  interval: 10s\n");
        return files;
    }

    /**
     * What the daemon's own parsers say about {@code files} as if they were in {@code dir} (nothing is read):
     * every error and warning of ha.cf, authkeys, haresources and jheartbeat.yaml. The answers are checked
     * this way before anything is written, so a wrong group line is one {@code file:line} message.
     */
    public static List<ConfigDiagnostic> parse(Map<String, String> files, Path dir) {
        List<ConfigDiagnostic> all = new ArrayList<>();
        HaCfParser.Result ha = HaCfParser.parse(dir.resolve(HaCfParser.FILE_NAME), files.get(HaCfParser.FILE_NAME));
        all.addAll(ha.diagnostics());
        all.addAll(AuthKeysParser.parse(dir.resolve(AuthKeysParser.FILE_NAME), files.get(AuthKeysParser.FILE_NAME))
                .diagnostics());
        List<NodeName> nodes = ha.haCf().nodeNames();
        all.addAll(HaresourcesParser.parse(dir.resolve(HaresourcesParser.FILE_NAME),
                files.get(HaresourcesParser.FILE_NAME), nodes).diagnostics());
        try {
            JheartbeatYaml.parse(files.get(JheartbeatYaml.NAME), dir.resolve(JheartbeatYaml.NAME), Optional.empty());
        } catch (UserException e) {
            all.add(ConfigDiagnostic.error(dir.resolve(JheartbeatYaml.NAME), 0, e.getMessage()));
        }
        return all;
    }
}
