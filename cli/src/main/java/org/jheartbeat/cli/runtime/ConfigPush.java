package org.jheartbeat.cli.runtime;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.core.config.AuthKeysParser;
import org.jheartbeat.core.config.HaCfParser;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.LineDiff;

/**
 * The pure parts of {@code hb config push}: which files are pushed, the two shell scripts that run on
 * the peer (fetch its copies; write one file atomically), parsing what the fetch prints, and the plan
 * shown to the user (per file {@code unchanged}, {@code new file} or a unified diff against the peer's
 * copy). The scripts are POSIX sh with GNU {@code stat}; they run on the peer through ssh.
 */
public final class ConfigPush {
    /** The optional replication config, pushed when present. */
    public static final String SYNC_YAML = "sync.yaml";
    /** Every file {@code hb config push} knows, in the order shown. */
    public static final List<String> FILES = List.of(HaCfParser.FILE_NAME, AuthKeysParser.FILE_NAME,
            HaresourcesParser.FILE_NAME, SYNC_YAML, org.jheartbeat.cli.config.JheartbeatYaml.NAME);
    /** Exit code of the scripts when the remote directory does not exist. */
    public static final int NO_REMOTE_DIR = 3;
    /** Lines of context in the diffs. */
    private static final int CONTEXT = 3;
    private static final String TAG = "jhb-push";

    private ConfigPush() {
    }

    /**
     * One copy of a config file.
     *
     * @param name    its name in the config directory, e.g. {@code haresources}
     * @param content its bytes
     * @param mode    its permission bits, e.g. {@code 0600}
     */
    public record FileCopy(String name, byte[] content, int mode) {
        public FileCopy {
            Objects.requireNonNull(name, "name");
            content = content.clone();
        }

        @Override
        public byte[] content() {
            return content.clone();
        }

        /** The mode as {@code ls} and {@code chmod} write it: {@code 600}. */
        public String modeString() {
            return Integer.toOctalString(mode & 07777);
        }
    }

    /** What pushing a file does on the peer. */
    public enum Change { NEW, UNCHANGED, CHANGED }

    /**
     * One file of the plan.
     *
     * @param local  this node's copy, which is pushed
     * @param remote the peer's copy now, if it has one
     * @param change what pushing does
     * @param diff   the unified diff hunk from the peer's copy to this node's (empty if the texts are equal)
     */
    public record Entry(FileCopy local, Optional<FileCopy> remote, Change change, List<String> diff) {
        /** The file's name. */
        public String name() {
            return local.name();
        }

        /** Whether the peer's copy has another mode than this node's. */
        public boolean modeDiffers() {
            return remote.isPresent() && (remote.get().mode() & 07777) != (local.mode() & 07777);
        }
    }

    /**
     * Compares this node's files with the peer's.
     *
     * @param local  this node's files, in the order to show
     * @param remote the peer's files by name (a missing name: the peer has no such file)
     */
    public static List<Entry> plan(List<FileCopy> local, Map<String, FileCopy> remote) {
        List<Entry> out = new ArrayList<>();
        for (FileCopy l : local) {
            Optional<FileCopy> r = Optional.ofNullable(remote.get(l.name()));
            if (r.isEmpty()) {
                out.add(new Entry(l, r, Change.NEW, List.of()));
                continue;
            }
            boolean same = Arrays.equals(l.content, r.get().content) && (l.mode() & 07777) == (r.get().mode() & 07777);
            List<String> diff = LineDiff.hunks(shown(l.name(), r.get().content), shown(l.name(), l.content), CONTEXT);
            out.add(new Entry(l, r, same ? Change.UNCHANGED : Change.CHANGED, diff));
        }
        return out;
    }

    /** The files {@code plan} would write. */
    public static List<Entry> changes(List<Entry> plan) {
        return plan.stream().filter(e -> e.change() != Change.UNCHANGED).toList();
    }

    /**
     * What the user sees before anything is written: per file one line, and for a changed file the
     * diff ({@code ---} the peer's copy, {@code +++} this node's).
     *
     * @param localDir  this node's config directory
     * @param remote    {@code HOST:DIR} of the peer's
     */
    public static List<String> render(List<Entry> plan, String localDir, String remote) {
        List<String> out = new ArrayList<>();
        for (Entry e : plan) {
            String head = String.format("%-12s ", e.name());
            switch (e.change()) {
                case UNCHANGED -> out.add(head + "unchanged");
                case NEW -> out.add(head + "new file on the peer (" + e.local().content.length + " bytes, mode "
                        + e.local().modeString() + ")");
                case CHANGED -> {
                    String mode = e.modeDiffers() ? "mode " + e.remote().orElseThrow().modeString() + " -> "
                            + e.local().modeString() : "";
                    if (e.diff().isEmpty()) {
                        boolean bytesDiffer = !Arrays.equals(e.local().content, e.remote().orElseThrow().content);
                        out.add(head + "will be overwritten: " + (bytesDiffer
                                ? "differs only in line ends or a final newline" + (mode.isEmpty() ? "" : "; " + mode)
                                : "same text, " + mode));
                    } else {
                        out.add(head + "will be overwritten" + (mode.isEmpty() ? "" : " (" + mode + ")") + ":");
                        out.add("--- " + remote + "/" + e.name() + " (now)");
                        out.add("+++ " + localDir + "/" + e.name() + " (pushed)");
                        out.addAll(e.diff());
                    }
                }
                default -> throw new IllegalStateException(e.change().toString());
            }
        }
        return out;
    }

    /**
     * The lines of a file as the diff shows them: authkeys' keys are never printed, each is replaced by
     * {@code [key hidden, sha256 XXXXXXXX]} (the first 8 hex digits of its SHA-256), so a changed key
     * still shows as a changed line.
     */
    static List<String> shown(String name, byte[] content) {
        List<String> l = lines(content);
        if (!name.equals(AuthKeysParser.FILE_NAME)) {
            return l;
        }
        List<String> out = new ArrayList<>();
        for (String line : l) {
            Matcher m = AUTH_KEY_LINE.matcher(line);
            out.add(m.matches() ? m.group(1) + "[key hidden, sha256 " + sha256Prefix(m.group(2)) + "]" : line);
        }
        return out;
    }

    /** An authkeys key line: index, method, key (the key may contain blanks). */
    private static final Pattern AUTH_KEY_LINE = Pattern.compile("(\\s*\\d+\\s+\\S+\\s+)(\\S.*)");

    private static String sha256Prefix(String key) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256 in this JVM", e);
        }
    }

    /** The lines of a text as {@link LineDiff} takes them: split at LF, no line ends, no empty last line. */
    static List<String> lines(byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return List.of();
        }
        List<String> l = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        if (l.get(l.size() - 1).isEmpty()) {
            l.remove(l.size() - 1);
        }
        return l;
    }

    /** {@code s} quoted for sh: in single quotes, each {@code '} as {@code '\''}. */
    public static String shQuote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * The script that prints the peer's copies of {@code names} in {@code dir}: per file a line
     * {@code jhb-push FILE NAME SIZE MODE}, the bytes, a newline; or {@code jhb-push NONE NAME}. Exits
     * {@link #NO_REMOTE_DIR} if {@code dir} does not exist, 4 if a file cannot be read, 5 if one is not
     * a regular file.
     */
    public static String fetchScript(String dir, List<String> names) {
        StringBuilder sb = new StringBuilder();
        sb.append("cd ").append(shQuote(dir)).append(" 2>/dev/null || { echo \"").append(TAG)
                .append(": no directory \"").append(shQuote(dir)).append(" >&2; exit ").append(NO_REMOTE_DIR)
                .append("; }\n");
        sb.append("for f in");
        names.forEach(n -> sb.append(' ').append(shQuote(n)));
        sb.append("; do\n");
        sb.append("  if [ -f \"$f\" ]; then\n");
        sb.append("    [ -r \"$f\" ] || { echo \"").append(TAG).append(": cannot read $PWD/$f\" >&2; exit 4; }\n");
        sb.append("    printf '").append(TAG).append(" FILE %s %s %s\\n' \"$f\" \"$(wc -c < \"$f\" | tr -d ' ')\""
                + " \"$(stat -L -c %a \"$f\")\"\n");
        sb.append("    cat \"$f\" || exit 4\n");
        sb.append("    printf '\\n'\n");
        sb.append("  elif [ -e \"$f\" ]; then\n");
        sb.append("    echo \"").append(TAG).append(": $PWD/$f is not a regular file\" >&2; exit 5\n");
        sb.append("  else\n");
        sb.append("    printf '").append(TAG).append(" NONE %s\\n' \"$f\"\n");
        sb.append("  fi\n");
        sb.append("done\n");
        return sb.toString();
    }

    /**
     * Parses what {@link #fetchScript} printed.
     *
     * @throws IllegalArgumentException if it is not in that form
     */
    public static Map<String, FileCopy> parseFetch(byte[] out) {
        Map<String, FileCopy> files = new LinkedHashMap<>();
        int pos = 0;
        while (pos < out.length) {
            int nl = indexOf(out, (byte) '\n', pos);
            if (nl < 0) {
                throw new IllegalArgumentException("unterminated line at byte " + pos);
            }
            String[] f = new String(out, pos, nl - pos, StandardCharsets.UTF_8).split(" ");
            pos = nl + 1;
            if (f.length == 3 && f[0].equals(TAG) && f[1].equals("NONE")) {
                continue;
            }
            if (f.length != 5 || !f[0].equals(TAG) || !f[1].equals("FILE")) {
                throw new IllegalArgumentException("unexpected line: " + String.join(" ", f));
            }
            int size;
            int mode;
            try {
                size = Integer.parseInt(f[3]);
                mode = Integer.parseInt(f[4], 8);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad size or mode: " + String.join(" ", f));
            }
            if (size < 0 || pos + size + 1 > out.length || out[pos + size] != '\n') {
                throw new IllegalArgumentException(f[2] + ": " + size + " bytes announced, not that many sent");
            }
            files.put(f[2], new FileCopy(f[2], Arrays.copyOfRange(out, pos, pos + size), mode));
            pos += size + 1;
        }
        return files;
    }

    private static int indexOf(byte[] a, byte b, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The script that replaces {@code dir/name} with its standard input, atomically: a temporary file in
     * the same directory (created with umask 077, then given {@code mode}), checked to have
     * {@code size} bytes (a broken connection must not leave a truncated file), synced, the old file
     * kept as {@code NAME.bak} (hard link, or a copy), then renamed over the old one. A symlinked file
     * is followed: its target is replaced. Exits {@link #NO_REMOTE_DIR} if {@code dir} does not exist.
     */
    public static String writeScript(String dir, String name, int size, int mode) {
        return "set -e\n"
                + "cd " + shQuote(dir) + " 2>/dev/null || { echo \"" + TAG + ": no directory \"" + shQuote(dir)
                + " >&2; exit " + NO_REMOTE_DIR + "; }\n"
                + "f=" + shQuote(name) + "\n"
                + "if [ -L \"$f\" ]; then t=$(readlink -f \"$f\"); else t=\"$PWD/$f\"; fi\n"
                + "d=$(dirname \"$t\"); b=$(basename \"$t\")\n"
                + "tmp=\"$d/.$b.push-tmp\"\n"
                + "trap 'rm -f \"$tmp\"' EXIT\n"
                + "rm -f \"$tmp\"\n"
                + "(umask 077; cat > \"$tmp\")\n"
                + "n=$(wc -c < \"$tmp\" | tr -d ' ')\n"
                + "[ \"$n\" = " + size + " ] || { echo \"" + TAG + ": received $n of " + size
                + " bytes of $f; not written\" >&2; exit 6; }\n"
                + "chmod " + Integer.toOctalString(mode & 07777) + " \"$tmp\"\n"
                + "sync \"$tmp\" 2>/dev/null || true\n"
                + "if [ -e \"$t\" ]; then rm -f \"$t.bak\"; ln \"$t\" \"$t.bak\" 2>/dev/null || cp -p \"$t\" \"$t.bak\"; fi\n"
                + "mv -f \"$tmp\" \"$t\"\n"
                + "trap - EXIT\n"
                + "sync \"$d\" 2>/dev/null || true\n";
    }
}
