package org.jheartbeat.core.wire;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;

/**
 * Locates and reads the Heartbeat 3.0.6 reference captures in {@code shared/vectors/heartbeat-3.0.6},
 * which live beside the repository root (a {@code shared} directory that is a sibling of an ancestor
 * of the working directory: {@code /work/wt/shared} locally, {@code ../shared} in CI). Missing vectors
 * fail the test run; they are never skipped.
 */
public final class HeartbeatVectors {
    /** The folders holding one UDP payload per {@code .bin} file. */
    public static final List<String> PACKET_FOLDERS = List.of("sha1", "md5", "crc", "lifecycle");

    private static final Path ROOT = locate();
    private static final Pattern XXD_LINE =
            Pattern.compile("^[0-9a-f]{8}: ((?:[0-9a-f]{2,4} ?)+?)\\s{2}.*$");
    private static final Pattern FILE_NUMBER = Pattern.compile("^\\D*(\\d{1,9})\\.bin$");

    private HeartbeatVectors() {
    }

    /** The {@code heartbeat-3.0.6} vector directory. */
    public static Path root() {
        return ROOT;
    }

    /** The keys named in the vectors' README for {@code folder}: index 1, sha1/md5 {@code testsecret}, crc none. */
    public static AuthKeys keysFor(String folder) {
        return switch (folder) {
            case "sha1", "lifecycle" -> AuthKeys.single(1, AuthMethod.SHA1, ascii("testsecret"));
            case "md5" -> AuthKeys.single(1, AuthMethod.MD5, ascii("testsecret"));
            case "crc" -> AuthKeys.single(1, AuthMethod.CRC, new byte[0]);
            default -> throw new IllegalArgumentException("no keys known for vector folder " + folder);
        };
    }

    /** An authenticator with {@link #keysFor(String)}. */
    public static MessageAuthenticator authenticatorFor(String folder) {
        return new MessageAuthenticator(keysFor(folder));
    }

    /** Every {@code .bin} file of {@code folder}, sorted by name; fails if there are none. */
    public static List<Path> packets(String folder) {
        try (Stream<Path> files = Files.list(ROOT.resolve(folder))) {
            List<Path> list = files.filter(p -> p.toString().endsWith(".bin"))
                    .sorted(Comparator.comparing(Path::toString)).toList();
            if (list.isEmpty()) {
                throw new IllegalStateException("no .bin vectors in " + ROOT.resolve(folder));
            }
            return list;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every {@code .bin} file of {@code folder} in capture order: sorted by the number in the name, not
     * by the name. The lifecycle files are {@code lc-01.bin} … {@code lc-99.bin}, {@code lc-100.bin} …
     * {@code lc-289.bin} (two digits below 100), so a plain name sort puts {@code lc-100} before
     * {@code lc-11}. Fails if a name carries no number.
     */
    public static List<Path> packetsInCaptureOrder(String folder) {
        return packets(folder).stream().sorted(Comparator.comparingLong(HeartbeatVectors::fileNumber)).toList();
    }

    /** The pcap capture of the lifecycle run: the same datagrams as {@code lifecycle/}, with times and addresses. */
    public static Path lifecycleCapture() {
        Path pcap = ROOT.resolve("lifecycle.pcap");
        if (!Files.isRegularFile(pcap)) {
            throw new IllegalStateException("missing " + pcap);
        }
        return pcap;
    }

    private static long fileNumber(Path p) {
        Matcher m = FILE_NUMBER.matcher(p.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalStateException("no number in vector file name " + p);
        }
        return Long.parseLong(m.group(1));
    }

    /** The serial byte-stream files, sorted by name; fails if there are none. */
    public static List<Path> serialStreams() {
        try (Stream<Path> files = Files.list(ROOT.resolve("serial"))) {
            List<Path> list = files.sorted(Comparator.comparing(Path::toString)).toList();
            if (list.isEmpty()) {
                throw new IllegalStateException("no serial vectors in " + ROOT.resolve("serial"));
            }
            return list;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The whole file. */
    public static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The raw bytes of a serial stream file. Files are meant to be raw, but one shipped file is an
     * {@code xxd} hex dump of the stream; such a file (every line an {@code xxd} line) is converted back.
     */
    public static byte[] readSerialStream(Path file) {
        byte[] content = read(file);
        return isXxdDump(content) ? fromXxd(content) : content;
    }

    /** Whether {@code content} is an {@code xxd} dump rather than raw bytes. */
    public static boolean isXxdDump(byte[] content) {
        String text = new String(content, ISO_8859_1);
        return !text.isEmpty() && text.lines().allMatch(l -> XXD_LINE.matcher(l).matches());
    }

    /** Splits a serial stream into frames, each from {@code >>>\n} through the following {@code <<<\n}. */
    public static List<byte[]> splitFrames(byte[] stream) {
        List<byte[]> frames = new ArrayList<>();
        byte[] start = ascii(">>>\n");
        byte[] end = ascii("<<<\n");
        int from = 0;
        while (true) {
            int s = indexOf(stream, start, from);
            if (s < 0) {
                return frames;
            }
            int e = indexOf(stream, end, s);
            if (e < 0) {
                throw new IllegalStateException("unterminated frame at offset " + s);
            }
            frames.add(Arrays.copyOfRange(stream, s, e + end.length));
            from = e + end.length;
        }
    }

    /** {@code s} as ASCII/ISO-8859-1 bytes. */
    public static byte[] ascii(String s) {
        return s.getBytes(ISO_8859_1);
    }

    private static byte[] fromXxd(byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new String(content, ISO_8859_1).lines().forEach(line -> {
            Matcher m = XXD_LINE.matcher(line);
            if (!m.matches()) {
                throw new IllegalStateException("not an xxd line: " + line);
            }
            out.writeBytes(HexFormat.of().parseHex(m.group(1).replace(" ", "")));
        });
        return out.toByteArray();
    }

    private static int indexOf(byte[] data, byte[] needle, int from) {
        outer:
        for (int i = from; i <= data.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (data[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static Path locate() {
        Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("vectors").resolve("heartbeat-3.0.6");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("Heartbeat 3.0.6 vectors not found: no shared/vectors/heartbeat-3.0.6 "
                + "beside any ancestor of " + start + " (expected the repository's parent to hold shared/)");
    }
}
