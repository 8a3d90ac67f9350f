package org.jheartbeat.cli.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks the secrets of the configuration files {@code hb report} puts in its archive, keeping every line,
 * key and comment so the structure can still be read: a secret value becomes {@link #MASK}.
 * <ul>
 *   <li>authkeys: the key of each {@code N METHOD KEY} line, also commented out;</li>
 *   <li>ha.cf: the secret parameters of {@code stonith_host} lines: those whose name (from the device's
 *       parameter list) says password, passwd, secret, token, key, credential or community; every parameter
 *       of a device type this machine does not know;</li>
 *   <li>ldirectord.cf: {@code passwd=} and {@code secret=} (and any other secret-named {@code NAME = VALUE});</li>
 *   <li>YAML (jheartbeat.yaml, sync.yaml): the value of secret-named keys, block scalars included;</li>
 *   <li>everywhere, log lines too: {@code NAME=VALUE} with a secret name (haresources parameters such as
 *       {@code replication_passwd=...}) and the password of {@code scheme://user:password@host}.</li>
 * </ul>
 * A name ending in {@code _file}, {@code _script}, {@code _dir}, {@code _path} or {@code _command} holds
 * where a secret is, not the secret, and stays. Pure: text in, text out.
 */
public final class SecretMask {
    /** What a secret value is replaced with (plain in YAML, no alias or tag character). */
    public static final String MASK = "<masked>";
    private static final String SECRET_WORD = "(?:pass(?:word|wd|phrase)?|secret|token|credential|community|key|psk)s?";
    /** A name that holds a secret: one of the words, alone or as a suffix/prefix part. */
    private static final Pattern SECRET_NAME = Pattern.compile("(?i)(?:[a-z0-9]*[_-])*[a-z0-9]*" + SECRET_WORD
            + "(?:[_-][a-z0-9]+)*");
    private static final Pattern NOT_SECRET = Pattern.compile("(?i).*(?:file|_script|_dir|_path|_command|_cmd|_id|_length"
            + "|_bits|_type)$");
    private static final Pattern ASSIGN = Pattern.compile("(?i)\\b([a-z][a-z0-9_-]*)=(\"[^\"]*\"|'[^']*'|[^\\s:,;&]+(?:"
            + "(?<!:):(?!:)[^\\s:,;&]+)*)");
    private static final Pattern URL_PASSWORD = Pattern.compile("([a-z][a-z0-9+.-]*://[^\\s/:@]+:)([^\\s/@]+)(@)");
    private static final Pattern AUTHKEYS_KEY = Pattern.compile("^(\\s*#?\\s*\\d+\\s+\\S+\\s+)(\\S.*?)(\\s*)$");
    private static final Pattern CF_ASSIGN = Pattern.compile("^(\\s*([A-Za-z][A-Za-z0-9_]*)\\s*=\\s*)(.*?)(\\s*)$");
    private static final Pattern YAML_KEY = Pattern.compile("^(\\s*(?:-\\s+)?[\"']?([A-Za-z0-9_.-]+)[\"']?\\s*:)(\\s*)(.*)$");
    private static final Pattern YAML_FLOW = Pattern.compile("([{,]\\s*[\"']?([A-Za-z0-9_.-]+)[\"']?\\s*:\\s*)"
            + "(\"[^\"]*\"|'[^']*'|[^,}\\s][^,}]*)");

    private SecretMask() {
    }

    /** Whether a parameter or key named {@code name} holds a secret. */
    public static boolean isSecretName(String name) {
        return SECRET_NAME.matcher(name).matches() && !NOT_SECRET.matcher(name).matches();
    }

    /**
     * {@code text} of the file named {@code fileName} with its secrets masked.
     *
     * @param stonithNames a STONITH device type → its positional parameter names, empty for a type not known
     */
    public static String file(String fileName, String text, Function<String, Optional<List<String>>> stonithNames) {
        String name = fileName.toLowerCase(java.util.Locale.ROOT);
        if (name.equals("authkeys") || name.startsWith("authkeys.")) {
            return lines(text, SecretMask::authkeysLine);
        }
        if (name.equals("ha.cf") || name.startsWith("ha.cf.")) {
            return lines(text, l -> haCfLine(l, stonithNames));
        }
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            return yaml(text);
        }
        if (name.endsWith(".cf")) {
            return lines(text, SecretMask::cfLine);
        }
        return lines(text, SecretMask::anyLine);
    }

    /** A line of any text (a log line, a haresources line): secret {@code NAME=VALUE} and URL passwords. */
    public static String anyLine(String line) {
        Matcher m = ASSIGN.matcher(line);
        StringBuilder out = new StringBuilder(line.length());
        while (m.find()) {
            String replacement = isSecretName(m.group(1)) ? m.group(1) + "=" + MASK : m.group();
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return URL_PASSWORD.matcher(out).replaceAll("$1" + Matcher.quoteReplacement(MASK) + "$3");
    }

    static String authkeysLine(String line) {
        Matcher m = AUTHKEYS_KEY.matcher(line);
        return m.matches() ? m.group(1) + MASK + m.group(3) : line;
    }

    static String haCfLine(String line, Function<String, Optional<List<String>>> stonithNames) {
        String body = line.replaceFirst("^\\s*#\\s*", "");
        String[] w = body.strip().split("\\s+");
        if (w.length < 4 || !w[0].equals("stonith_host")) {
            return anyLine(line);
        }
        // stonith_host FROM TYPE PARAM...: the parameters map onto the device's names in order, the last
        // name taking the rest (StonithDevices.positional)
        Optional<List<String>> names = stonithNames.apply(w[2]);
        List<String> out = new ArrayList<>(List.of(w[0], w[1], w[2]));
        for (int i = 3; i < w.length; i++) {
            int p = i - 3;
            boolean secret;
            if (w[i].contains("=")) {
                secret = isSecretName(w[i].substring(0, w[i].indexOf('=')));
                out.add(secret ? w[i].substring(0, w[i].indexOf('=') + 1) + MASK : w[i]);
                continue;
            }
            if (names.isEmpty()) {
                secret = true;
            } else {
                List<String> n = names.get();
                secret = !n.isEmpty() && isSecretName(n.get(Math.min(p, n.size() - 1)));
            }
            out.add(secret ? MASK : w[i]);
        }
        String prefix = line.substring(0, line.length() - line.stripLeading().length());
        return prefix + (line.stripLeading().startsWith("#") ? "# " : "") + String.join(" ", out);
    }

    static String cfLine(String line) {
        Matcher m = CF_ASSIGN.matcher(line);
        if (m.matches() && isSecretName(m.group(2)) && !m.group(3).isEmpty()) {
            return m.group(1) + MASK + m.group(4);
        }
        return anyLine(line);
    }

    /** YAML, line by line: a secret key's scalar, the lines of its block scalar, secret keys of flow maps. */
    static String yaml(String text) {
        List<String> in = text.lines().toList();
        StringBuilder out = new StringBuilder(text.length());
        int blockIndent = -1; // masking the more-indented lines of a secret's block scalar
        for (String line : in) {
            int indent = line.length() - line.stripLeading().length();
            if (blockIndent >= 0) {
                if (line.isBlank() || indent > blockIndent) {
                    out.append(line.isBlank() ? line : " ".repeat(indent) + MASK).append('\n');
                    continue;
                }
                blockIndent = -1;
            }
            Matcher m = YAML_KEY.matcher(line);
            if (m.matches() && !line.stripLeading().startsWith("#") && isSecretName(m.group(2))) {
                String value = m.group(4);
                if (value.isEmpty() || value.startsWith("#")) {
                    out.append(line).append('\n'); // a map or list below: its own keys decide
                } else if (value.startsWith("|") || value.startsWith(">")) {
                    blockIndent = indent + (line.stripLeading().startsWith("-") ? 2 : 0);
                    out.append(line).append('\n');
                } else if (value.startsWith("{") || value.startsWith("[")) {
                    out.append(m.group(1)).append(m.group(3)).append(flowAll(value)).append('\n');
                } else {
                    out.append(m.group(1)).append(m.group(3)).append(MASK).append(comment(value)).append('\n');
                }
                continue;
            }
            out.append(anyLine(flow(line))).append('\n');
        }
        return text.endsWith("\n") || text.isEmpty() ? out.toString() : out.substring(0, out.length() - 1);
    }

    private static String flow(String line) {
        Matcher m = YAML_FLOW.matcher(line);
        StringBuilder out = new StringBuilder(line.length());
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(isSecretName(m.group(2)) ? m.group(1) + MASK : m.group()));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** A secret key's flow collection: every scalar in it. */
    private static String flowAll(String value) {
        return value.replaceAll("(?<=[\\[{,:]\\s?)\\s*(\"[^\"]*\"|'[^']*'|[^,\\]}\\s:][^,\\]}:]*)(?=\\s*[,\\]}])", MASK);
    }

    private static String comment(String value) {
        int from = 0;
        if (value.startsWith("\"") || value.startsWith("'")) {
            int close = value.indexOf(value.charAt(0), 1);
            if (close < 0) {
                return ""; // a quoted scalar that goes on over lines: nothing after it on this one
            }
            from = close + 1;
        }
        int hash = value.indexOf(" #", from);
        if (hash < 0) {
            return "";
        }
        while (hash > from && Character.isWhitespace(value.charAt(hash - 1))) {
            hash--; // the comment keeps its indentation
        }
        return value.substring(hash);
    }

    private static String lines(String text, Function<String, String> each) {
        StringBuilder out = new StringBuilder(text.length());
        int start = 0;
        while (start < text.length()) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? text.length() : nl;
            out.append(each.apply(text.substring(start, end)));
            if (nl >= 0) {
                out.append('\n');
            }
            start = end + 1;
        }
        return out.toString();
    }
}
