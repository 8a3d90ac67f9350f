package org.jheartbeat.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A haresources file as its physical lines, for editing in place ({@code hb resources}). Untouched
 * lines stay byte-identical: an edit replaces, inserts or deletes only the lines of the group it
 * touches. Groups are found with the same rules as {@link HaresourcesParser} (Heartbeat 3.0.6
 * {@code config.c} {@code parse_ha_resources} and ResourceManager; facts E.1): {@code #} starts a
 * comment, a {@code \} at the end of the comment-free text joins the next line, blanks and tabs separate
 * tokens, the first token is the preferred node and the first resource is the group key.
 * <p>
 * This class is lenient: it finds groups in a file with errors too (a group with no resources, an
 * unknown node), so that such a file can be listed and repaired; validate the rendered text with
 * {@link HaresourcesParser} before writing it. Instances are immutable; each edit returns a new one.
 * <p>
 * CRLF line ends are normalised to LF when parsing ({@link #crlfNormalised()}); that is the one
 * change made to lines an edit does not touch, besides a missing final newline that is added when a
 * group is appended after the last line.
 */
public final class HaresourcesDocument {
    /** A token the file can hold unchanged: no blank, tab, newline, comment or continuation char. */
    private static final Pattern SAFE_TOKEN = Pattern.compile("[^\\s#\\\\]+");

    /**
     * One token and where it is.
     *
     * @param line  0-based physical line
     * @param start offset of its first char in the line
     * @param end   offset after its last char
     * @param text  the token
     */
    public record Token(int line, int start, int end, String text) {
    }

    /**
     * One group (logical line) of the file.
     *
     * @param number    1-based group number in file order
     * @param firstLine 1-based first physical line (where the logical line starts)
     * @param lastLine  1-based last physical line (the one not continued)
     * @param tokens    the preferred node then the resources, as written
     */
    public record Group(int number, int firstLine, int lastLine, List<Token> tokens) {
        public Group {
            tokens = List.copyOf(tokens);
        }

        /** The preferred node as written. */
        public String node() {
            return tokens.get(0).text();
        }

        /** The resource tokens, in start order (may be empty in a broken file). */
        public List<String> resources() {
            return tokens.subList(1, tokens.size()).stream().map(Token::text).toList();
        }

        /** The group key (first resource), or {@code ""} if the group has none. */
        public String key() {
            return tokens.size() > 1 ? tokens.get(1).text() : "";
        }
    }

    /** An edit that cannot be made; the message is one line for the user. */
    public static final class EditException extends Exception {
        public EditException(String message) {
            super(message);
        }
    }

    private final List<String> raw;
    private final boolean crlfNormalised;
    private final List<Group> groups;

    private HaresourcesDocument(List<String> raw, boolean crlfNormalised) {
        this.raw = List.copyOf(raw);
        this.crlfNormalised = crlfNormalised;
        this.groups = findGroups(this.raw);
    }

    /**
     * Reads the text of a haresources file; never fails. {@code \r\n} becomes {@code \n}.
     *
     * @param text the whole file
     */
    public static HaresourcesDocument parse(String text) {
        boolean crlf = text.contains("\r\n");
        String lf = crlf ? text.replace("\r\n", "\n") : text;
        List<String> raw = new ArrayList<>();
        int from = 0;
        while (from < lf.length()) {
            int nl = lf.indexOf('\n', from);
            int to = nl < 0 ? lf.length() : nl + 1;
            raw.add(lf.substring(from, to));
            from = to;
        }
        return new HaresourcesDocument(raw, crlf);
    }

    /** Whether the text had CRLF line ends, normalised to LF (every line changes when written). */
    public boolean crlfNormalised() {
        return crlfNormalised;
    }

    /** The physical lines without their line ends. */
    public List<String> lines() {
        return raw.stream().map(HaresourcesDocument::body).toList();
    }

    /** The groups in file order. */
    public List<Group> groups() {
        return groups;
    }

    /** The text: the physical lines with their line ends, as read (after CRLF normalisation) or edited. */
    public String render() {
        return String.join("", raw);
    }

    /**
     * Finds a group: by key first (exact, case-sensitive), then, if {@code ref} is a number, by number.
     *
     * @throws EditException naming what exists instead
     */
    public Group find(String ref) throws EditException {
        for (Group g : groups) {
            if (g.key().equals(ref)) {
                return g;
            }
        }
        if (ref.matches("[0-9]{1,9}")) {
            int n = Integer.parseInt(ref);
            if (n >= 1 && n <= groups.size()) {
                return groups.get(n - 1);
            }
            throw new EditException("no group number " + n + ": haresources has " + groups.size()
                    + " group(s); see hb resources list");
        }
        for (Group g : groups) {
            if (g.resources().contains(ref)) {
                throw new EditException("[" + ref + "] is a resource of group " + g.number() + " (key " + g.key()
                        + "), not a group key; name the group by its key or number");
            }
        }
        throw new EditException("no group with key [" + ref + "]"
                + (groups.isEmpty() ? ": haresources has no groups" : "; keys: "
                + String.join(", ", groups.stream().map(Group::key).toList())));
    }

    /**
     * Appends {@code NODE RESOURCE...} as one new line at the end of the file.
     *
     * @throws EditException if there is no resource or a token cannot be written as one token
     */
    public HaresourcesDocument withGroupAdded(String node, List<String> resources) throws EditException {
        checkToken("node", node);
        if (resources.isEmpty()) {
            throw new EditException("a resource group needs at least one resource: NODE RESOURCE [RESOURCE...]");
        }
        for (String r : resources) {
            checkToken("resource", r);
        }
        List<String> out = new ArrayList<>(raw);
        if (!out.isEmpty()) {
            int last = out.size() - 1;
            if (!out.get(last).endsWith("\n")) {
                out.set(last, out.get(last) + "\n");
            }
            if (continued(body(out.get(last)))) {
                out.add("\n"); // ends a dangling continuation, which would otherwise swallow the new group
            }
        }
        out.add(node + " " + String.join(" ", resources) + "\n");
        return new HaresourcesDocument(out, crlfNormalised);
    }

    /** Deletes the group's physical lines (comment lines above it are kept). */
    public HaresourcesDocument withGroupRemoved(String ref) throws EditException {
        Group g = find(ref);
        List<String> out = new ArrayList<>(raw);
        out.subList(g.firstLine() - 1, g.lastLine()).clear();
        return new HaresourcesDocument(out, crlfNormalised);
    }

    /**
     * Rewrites only the group's first token (the preferred node); the rest of its lines stay as written.
     * Returns an equal document if the group is already on {@code node} (compared case-insensitively,
     * as Heartbeat lowercases node names).
     */
    public HaresourcesDocument withGroupMoved(String ref, String node) throws EditException {
        checkToken("node", node);
        Group g = find(ref);
        if (g.node().equalsIgnoreCase(node)) {
            return this;
        }
        return replace(g.tokens().get(0), node);
    }

    /** Appends a resource after the group's last token (before a trailing comment or {@code \}). */
    public HaresourcesDocument withResourceAdded(String ref, String resource) throws EditException {
        checkToken("resource", resource);
        Group g = find(ref);
        Token last = g.tokens().get(g.tokens().size() - 1);
        return splice(last.line(), last.end(), last.end(), " " + resource);
    }

    /**
     * Removes one resource token from a group, with the blanks that separated it.
     *
     * @throws EditException if the group does not hold it, or it is the group's only resource
     */
    public HaresourcesDocument withResourceRemoved(String ref, String resource) throws EditException {
        Group g = find(ref);
        List<Token> tokens = g.tokens();
        for (int i = 1; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (!t.text().equals(resource)) {
                continue;
            }
            if (tokens.size() == 2) {
                throw new EditException("[" + resource + "] is the only resource of group " + g.number()
                        + "; remove the whole group instead (hb resources remove " + g.key() + ")");
            }
            String line = body(raw.get(t.line()));
            boolean firstOnLine = tokens.get(i - 1).line() != t.line();
            int from = t.start();
            int to = t.end();
            if (firstOnLine) {
                while (to < line.length() && isBlank(line.charAt(to))) {
                    to++;
                }
            } else {
                while (from > 0 && isBlank(line.charAt(from - 1))) {
                    from--;
                }
            }
            return splice(t.line(), from, to, "");
        }
        throw new EditException("group " + g.number() + " (key " + g.key() + ") has no resource [" + resource
                + "]; its resources: " + String.join(" ", g.resources()));
    }

    private HaresourcesDocument replace(Token t, String text) {
        return splice(t.line(), t.start(), t.end(), text);
    }

    private HaresourcesDocument splice(int line, int from, int to, String text) {
        List<String> out = new ArrayList<>(raw);
        String r = out.get(line);
        out.set(line, r.substring(0, from) + text + r.substring(to));
        return new HaresourcesDocument(out, crlfNormalised);
    }

    private static void checkToken(String what, String token) throws EditException {
        if (!SAFE_TOKEN.matcher(token).matches()) {
            throw new EditException(what + " [" + token + "] must be one token: no blanks, '#' or '\\'");
        }
    }

    private static List<Group> findGroups(List<String> raw) {
        List<Group> groups = new ArrayList<>();
        List<Token> tokens = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < raw.size(); i++) {
            String content = ConfigText.stripComment(body(raw.get(i))).stripTrailing();
            boolean cont = ConfigText.continues(body(raw.get(i)));
            if (content.endsWith("\\")) {
                content = content.substring(0, content.length() - 1);
            }
            if (start < 0) {
                start = i;
            }
            for (int p = 0; p < content.length(); ) {
                if (isBlank(content.charAt(p))) {
                    p++;
                    continue;
                }
                int e = p;
                while (e < content.length() && !isBlank(content.charAt(e))) {
                    e++;
                }
                tokens.add(new Token(i, p, e, content.substring(p, e)));
                p = e;
            }
            if (!cont || i == raw.size() - 1) {
                if (!tokens.isEmpty()) {
                    groups.add(new Group(groups.size() + 1, start + 1, i + 1, tokens));
                }
                tokens = new ArrayList<>();
                start = -1;
            }
        }
        return groups;
    }

    private static boolean continued(String line) {
        return ConfigText.continues(line);
    }

    /** Parser separators: {@code split("[ \t]+")}. */
    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    private static String body(String rawLine) {
        return rawLine.endsWith("\n") ? rawLine.substring(0, rawLine.length() - 1) : rawLine;
    }
}
