package org.jheartbeat.core.config;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reading config files into lines, shared by the three parsers. Package-private: file reading is
 * an implementation detail of {@link ConfigLoader} and the parsers' {@code parse(Path)} methods.
 */
final class ConfigText {
    /** Largest config file read, in bytes (1 MiB): real ones are a few KiB. */
    static final long MAX_FILE_BYTES = 1 << 20;

    private ConfigText() {
    }

    /**
     * Reads a whole file in the given charset (undecodable bytes become U+FFFD). A missing or
     * unreadable file is reported as an ERROR on line 0 and gives an empty result; so is a file with
     * binary data ({@link #firstControlByte}), as one ERROR on the line of its first control byte.
     */
    static Optional<String> read(Path file, Charset charset, List<ConfigDiagnostic> sink) {
        try {
            if (!Files.exists(file)) {
                sink.add(ConfigDiagnostic.error(file, 0, file.getFileName() + " not found"));
                return Optional.empty();
            }
            if (Files.isDirectory(file)) {
                sink.add(ConfigDiagnostic.error(file, 0, file.getFileName() + " is a directory; a file is expected"));
                return Optional.empty();
            }
            if (!Files.isRegularFile(file)) {
                sink.add(ConfigDiagnostic.error(file, 0, file.getFileName() + " is not a regular file"
                        + (Files.exists(file) ? " (a device or pipe?)" : "")));
                return Optional.empty();
            }
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                sink.add(ConfigDiagnostic.error(file, 0, file.getFileName() + " is " + size + " bytes; config files"
                        + " are limited to " + MAX_FILE_BYTES + " bytes: is this the right file?"));
                return Optional.empty();
            }
            byte[] bytes = Files.readAllBytes(file);
            int at = firstControlByte(bytes);
            if (at >= 0) {
                int line = 1;
                for (int i = 0; i < at; i++) {
                    line += bytes[i] == '\n' ? 1 : 0;
                }
                sink.add(ConfigDiagnostic.error(file, line, String.format("%s holds binary data (byte 0x%02X), not"
                        + " text: is this the right file? (a config file has only printable characters, blanks and"
                        + " tabs)", file.getFileName(), bytes[at] & 0xff)));
                return Optional.empty();
            }
            return Optional.of(new String(bytes, charset));
        } catch (NoSuchFileException e) {
            // a dangling symlink ends up here too
            sink.add(ConfigDiagnostic.error(file, 0, file.getFileName() + " not found"));
        } catch (IOException | RuntimeException e) {
            sink.add(ConfigDiagnostic.error(file, 0, "cannot read " + file.getFileName() + ": " + e));
        }
        return Optional.empty();
    }

    /**
     * The index of the first control byte that no text file has (NUL and the other C0 controls but
     * tab, LF, VT, FF, CR; and DEL), or -1. Heartbeat would read such a file line by line and report
     * each line; one message is clearer.
     */
    static int firstControlByte(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xff;
            if ((b < 0x20 && (b < '\t' || b > '\r')) || b == 0x7f) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Splits text into physical lines on {@code \n}. A trailing {@code \r} is removed from each line,
     * as Heartbeat does ({@code config.c} cuts a line at its first CR or LF), and the first line that
     * had one gets a WARNING: the file works, but a DOS-edited file often hides other trouble.
     */
    static List<String> lines(Path file, String text, List<ConfigDiagnostic> sink) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        boolean reported = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.endsWith("\r")) {
                lines.set(i, line.substring(0, line.length() - 1));
                if (!reported) {
                    sink.add(ConfigDiagnostic.warning(file, i + 1, "file has CRLF (DOS) line endings; the CRs are"
                            + " ignored, as Heartbeat does; convert with dos2unix " + file));
                    reported = true;
                }
            }
        }
        return lines;
    }

    /**
     * Whether a haresources line continues on the next one: once its comment is removed (and a CR),
     * its last character is {@code \}, as Heartbeat 3.0.6's ResourceManager joins lines
     * ({@code sed -e 's%#.*%%' -e '/\\$/N; ...'}). A {@code \} followed by a blank, with or without a
     * comment after it, does not continue.
     */
    static boolean continues(String line) {
        String l = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        return stripComment(l).endsWith("\\");
    }

    /** The line without its {@code #} comment (a {@code #} anywhere starts one, Heartbeat config.c). */
    static String stripComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }
}
