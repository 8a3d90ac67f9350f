package org.jheartbeat.core.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * What kind of file a device path named in ha.cf is ({@code serial}, {@code watchdog}), from its
 * {@code unix:mode} after symbolic links are followed ({@code /dev/watchdog} may be a udev link).
 * Package-private: the config readers' one place for {@code S_IFMT}.
 */
final class DeviceFiles {
    /** The file types ha.cf device lines tell apart ({@code S_IFMT} of stat(2)). */
    enum Kind {
        CHARACTER_DEVICE("a character device"),
        FIFO("a FIFO"),
        REGULAR_FILE("a regular file"),
        DIRECTORY("a directory"),
        OTHER("neither a character device nor a FIFO"),
        MISSING("missing"),
        /** The file system does not report unix modes (not Linux): nothing can be said. */
        UNKNOWN("of unknown type");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        /** The kind in a sentence: "a regular file". */
        String description() {
            return description;
        }
    }

    private static final int S_IFMT = 0170000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFDIR = 0040000;

    private DeviceFiles() {
    }

    /** The kind of {@code p}; {@link Kind#MISSING} when it (or a link's target) does not exist. */
    static Kind kind(Path p) {
        if (!Files.exists(p)) {
            return Kind.MISSING;
        }
        try {
            Object mode = Files.getAttribute(p, "unix:mode");
            if (!(mode instanceof Integer m)) {
                return Kind.UNKNOWN;
            }
            return switch (m & S_IFMT) {
                case S_IFCHR -> Kind.CHARACTER_DEVICE;
                case S_IFIFO -> Kind.FIFO;
                case S_IFREG -> Kind.REGULAR_FILE;
                case S_IFDIR -> Kind.DIRECTORY;
                default -> Kind.OTHER;
            };
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Files.exists(p, LinkOption.NOFOLLOW_LINKS) ? Kind.UNKNOWN : Kind.MISSING;
        }
    }

    /** Whether {@code p} is a character device, or of a kind that cannot be told (then given the benefit of the doubt). */
    static boolean isCharDevice(Path p) {
        Kind k = kind(p);
        return k == Kind.CHARACTER_DEVICE || k == Kind.UNKNOWN;
    }
}
