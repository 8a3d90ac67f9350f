package org.jheartbeat.core.testkit;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik generators of hostile inputs grown from real ones (the Heartbeat 3.0.6 captures, the example
 * config files): each case is a seed with one to three byte-level mutations applied in order — bit
 * flips, truncation, splicing with another seed, duplication of a slice (a field, a line), a decimal
 * run replaced by a huge or negative length, a slice overwritten with random bytes, a hostile token
 * inserted — or, now and then, bytes that owe nothing to any seed. Everything is shrinkable, so a
 * failing case is reported as the smallest seed index, offsets and bytes that still fail, in the
 * {@link Mutant#toString()} form a regression test can copy. docs/fuzzing.md lists the fuzzers.
 */
public final class Mutations {
    /**
     * Tokens that look valid to a parser but carry hostile values: markers of both wire formats in
     * the wrong place, huge and negative numbers, hex that overflows a long, NUL, CR, non-ASCII,
     * separators, and config keywords.
     */
    public static final List<String> HOSTILE = List.of(
            "", "0", "-1", "00", "01", "999999", "2147483648", "9223372036854775807", "18446744073709551616",
            "ffffffffffffffff", "fffffffffffffffff", "7fffffffffffffff", "-ffffffff", "0x10", "1e9", "NaN",
            "###\n", "%%%\n", ">>>\n", "<<<\n", "<<<", ">>>", ",", ":", "=", "(1)", "(9)", "(2)", "\n", "\r\n",
            "\0", "\u0013", "\u00ff\u00fe", " ", "\t", "#", "\\", "\"", "'", "{", "[", "- ", ": ", "&a", "*a",
            "!!binary", "%", "1 ", "1 sha1", "16 md5 x", "auth", "node", "keepalive", "deadtime", "IPaddr::",
            "::", "/", "..", "../../etc/passwd", "$(reboot)", "`id`", "a".repeat(300));

    private Mutations() {
    }

    /**
     * One generated case: the seed it came from and the mutations applied to it, and the result.
     *
     * @param seedIndex which seed (index into the list given to {@link #of})
     * @param steps     the mutations, in order, as text
     * @param bytes     the mutated input
     */
    public record Mutant(int seedIndex, List<String> steps, byte[] bytes) {
        /** The bytes as ISO-8859-1 text. */
        public String text() {
            return new String(bytes, ISO_8859_1);
        }

        @Override
        public String toString() {
            return "seed " + seedIndex + " " + steps + " -> " + bytes.length + " bytes \"" + escape(bytes) + "\"";
        }
    }

    /** A named mutation. */
    private record Step(String name, UnaryOperator<byte[]> op) {
        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * Mutants of {@code seeds}: one to three mutations per case; about one case in twelve is random bytes
     * (up to {@code 2 * longest seed} bytes) instead.
     *
     * @param seeds real inputs, at least one, not modified
     */
    public static Arbitrary<Mutant> of(List<byte[]> seeds) {
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("no seeds");
        }
        List<byte[]> copies = seeds.stream().map(byte[]::clone).toList();
        int longest = copies.stream().mapToInt(b -> b.length).max().orElse(16);
        Arbitrary<Mutant> mutated = Combinators.combine(Arbitraries.integers().between(0, copies.size() - 1),
                        step(copies).list().ofMinSize(1).ofMaxSize(3))
                .as((i, steps) -> {
                    byte[] b = copies.get(i).clone();
                    for (Step s : steps) {
                        b = s.op().apply(b);
                    }
                    return new Mutant(i, steps.stream().map(Step::name).toList(), b);
                });
        Arbitrary<Mutant> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(Math.max(16, 2 * longest))
                .map(b -> new Mutant(-1, List.of("random"), b));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(11, mutated),
                net.jqwik.api.Tuple.of(1, random));
    }

    private static Arbitrary<Step> step(List<byte[]> seeds) {
        Arbitrary<Integer> at = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        Arbitrary<Integer> bit = Arbitraries.integers().between(0, 7);
        Arbitrary<Integer> span = Arbitraries.integers().between(1, 64);
        Arbitrary<Integer> seed = Arbitraries.integers().between(0, seeds.size() - 1);
        Arbitrary<String> hostile = Arbitraries.of(HOSTILE);
        Arbitrary<Step> flip = Combinators.combine(at, bit).as((p, b) -> new Step("flip(" + p + "," + b + ")", in -> {
            if (in.length == 0) {
                return in;
            }
            byte[] out = in.clone();
            out[p % in.length] ^= (byte) (1 << b);
            return out;
        }));
        Arbitrary<Step> truncate = at.map(p -> new Step("truncate(" + p + ")",
                in -> Arrays.copyOf(in, in.length == 0 ? 0 : p % in.length)));
        Arbitrary<Step> splice = Combinators.combine(at, seed, at).as((p, s, q) -> new Step(
                "splice(" + p + ",seed " + s + "," + q + ")", in -> {
                    byte[] other = seeds.get(s);
                    int cut = in.length == 0 ? 0 : p % in.length;
                    int from = other.length == 0 ? 0 : q % other.length;
                    return concat(Arrays.copyOf(in, cut), Arrays.copyOfRange(other, from, other.length));
                }));
        Arbitrary<Step> duplicate = Combinators.combine(at, span, at).as((p, n, q) -> new Step(
                "duplicate(" + p + "," + n + "," + q + ")", in -> {
                    if (in.length == 0) {
                        return in;
                    }
                    int from = p % in.length;
                    int to = Math.min(in.length, from + n);
                    int insert = q % (in.length + 1);
                    return concat(Arrays.copyOf(in, insert), Arrays.copyOfRange(in, from, to),
                            Arrays.copyOfRange(in, insert, in.length));
                }));
        Arbitrary<Step> duplicateLine = Combinators.combine(at, at).as((p, q) -> new Step(
                "duplicateLine(" + p + "," + q + ")", in -> duplicateUnit(in, p, q)));
        Arbitrary<Step> hugeLength = Combinators.combine(at, Arbitraries.of("999999", "1000000", "262144",
                "2147483647", "2147483648", "4294967296", "99999999999999999999", "-1", "0", "00000000000000000001"))
                .as((p, n) -> new Step("number(" + p + "," + n + ")", in -> replaceDigits(in, p, n)));
        Arbitrary<Step> randomSlice = Combinators.combine(at, Arbitraries.bytes().array(byte[].class).ofMinSize(1)
                .ofMaxSize(16)).as((p, r) -> new Step("overwrite(" + p + ",\"" + escape(r) + "\")", in -> {
                    byte[] out = in.clone();
                    int start = in.length == 0 ? 0 : p % in.length;
                    for (int i = 0; i < r.length && start + i < out.length; i++) {
                        out[start + i] = r[i];
                    }
                    return out;
                }));
        Arbitrary<Step> insert = Combinators.combine(at, hostile).as((p, h) -> new Step(
                "insert(" + p + ",\"" + escape(h.getBytes(ISO_8859_1)) + "\")", in -> {
                    int where = p % (in.length + 1);
                    return concat(Arrays.copyOf(in, where), h.getBytes(ISO_8859_1), Arrays.copyOfRange(in, where, in.length));
                }));
        Arbitrary<Step> replaceValue = Combinators.combine(at, hostile).as((p, h) -> new Step(
                "value(" + p + ",\"" + escape(h.getBytes(ISO_8859_1)) + "\")", in -> replaceValue(in, p, h)));
        return Arbitraries.oneOf(flip, truncate, splice, duplicate, duplicateLine, hugeLength, randomSlice, insert,
                replaceValue);
    }

    /** Copies the {@code p}-th line (or netstring field: up to and including a {@code \n} or {@code ,}) after the {@code q}-th. */
    private static byte[] duplicateUnit(byte[] in, int p, int q) {
        List<int[]> units = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < in.length; i++) {
            if (in[i] == '\n' || in[i] == ',') {
                units.add(new int[] {start, i + 1});
                start = i + 1;
            }
        }
        if (units.isEmpty()) {
            return in;
        }
        int[] u = units.get(p % units.size());
        int at = units.get(q % units.size())[1];
        return concat(Arrays.copyOf(in, at), Arrays.copyOfRange(in, u[0], u[1]), Arrays.copyOfRange(in, at, in.length));
    }

    /** Replaces the {@code p}-th run of decimal digits with {@code number}. */
    private static byte[] replaceDigits(byte[] in, int p, String number) {
        List<int[]> runs = new ArrayList<>();
        for (int i = 0; i < in.length; i++) {
            if (in[i] >= '0' && in[i] <= '9') {
                int j = i;
                while (j < in.length && in[j] >= '0' && in[j] <= '9') {
                    j++;
                }
                runs.add(new int[] {i, j});
                i = j;
            }
        }
        if (runs.isEmpty()) {
            return in;
        }
        int[] r = runs.get(p % runs.size());
        return concat(Arrays.copyOf(in, r[0]), number.getBytes(ISO_8859_1), Arrays.copyOfRange(in, r[1], in.length));
    }

    /** Replaces what follows the {@code p}-th {@code =} (or {@code :}) up to the end of its line or field. */
    private static byte[] replaceValue(byte[] in, int p, String value) {
        List<Integer> seps = new ArrayList<>();
        for (int i = 0; i < in.length; i++) {
            if (in[i] == '=' || in[i] == ':') {
                seps.add(i);
            }
        }
        if (seps.isEmpty()) {
            return in;
        }
        int from = seps.get(p % seps.size()) + 1;
        int to = from;
        while (to < in.length && in[to] != '\n' && in[to] != ',') {
            to++;
        }
        return concat(Arrays.copyOf(in, from), value.getBytes(ISO_8859_1), Arrays.copyOfRange(in, to, in.length));
    }

    /**
     * The bytes of {@code name}, a file of the repository (found in the first directory above the working
     * directory that holds it and a {@code pom.xml}): a packaged example as a fuzzer's seed.
     *
     * @throws IllegalStateException if no such directory holds it
     * @throws java.io.UncheckedIOException if it cannot be read
     */
    public static byte[] repositoryFile(String name) {
        for (java.nio.file.Path dir = java.nio.file.Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null;
                dir = dir.getParent()) {
            if (java.nio.file.Files.isRegularFile(dir.resolve(name))
                    && java.nio.file.Files.isRegularFile(dir.resolve("pom.xml"))) {
                try {
                    return java.nio.file.Files.readAllBytes(dir.resolve(name));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("no " + name + " in the repository root above " + System.getProperty("user.dir"));
    }

    /** The arrays one after the other. */
    public static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /** Printable ASCII as is, {@code \n} and {@code \\}, anything else as {@code \xNN}: a Java string literal's content. */
    public static String escape(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            int c = x & 0xff;
            if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\\' || c == '"') {
                sb.append('\\').append((char) c);
            } else if (c >= 0x20 && c < 0x7f) {
                sb.append((char) c);
            } else {
                sb.append(String.format("\\u%04x", c));
            }
        }
        return sb.toString();
    }
}
