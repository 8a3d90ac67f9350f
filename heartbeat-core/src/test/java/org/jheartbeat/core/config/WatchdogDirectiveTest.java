package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.core.config.ConfigDiagnostic.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ha.cf {@code watchdog DEVICE} as read: which files are accepted, and one message with its line otherwise. */
class WatchdogDirectiveTest {
    private static final Path FILE = Path.of("/etc/ha.d/ha.cf");

    @TempDir
    Path dir;

    private static HaCfParser.Result parse(String text) {
        return HaCfParser.parse(FILE, text);
    }

    @Test
    void aCharacterDeviceIsTakenSilently() {
        HaCfParser.Result r = parse("keepalive 1\nwatchdog /dev/null\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.haCf().watchdog()).contains(new HaCf.Setting<>(Path.of("/dev/null"), 2));
    }

    @Test
    void aSymbolicLinkToACharacterDeviceIsTakenAsWritten() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("watchdog"), Path.of("/dev/null"));
        HaCfParser.Result r = parse("watchdog " + link + "\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.haCf().watchdog()).contains(new HaCf.Setting<>(link, 1));
    }

    @Test
    void noLineNoWatchdog() {
        assertThat(parse("keepalive 1\n").haCf().watchdog()).isEmpty();
    }

    @Test
    void aFifoIsAcceptedAsATestStandInWithAWarning() throws Exception {
        Path fifo = mkfifo(dir.resolve("wd.fifo"));
        HaCfParser.Result r = parse("watchdog " + fifo + "\n");
        assertThat(r.haCf().watchdog()).contains(new HaCf.Setting<>(fifo, 1));
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.format()).isEqualTo(FILE + ":1: warning: watchdog device " + fifo + " is a FIFO, not a kernel"
                    + " watchdog: it resets nothing (a stand-in for tests), and the daemon's start waits until a"
                    + " reader opens it");
        });
    }

    @Test
    void aRegularFileIsAnErrorAndNotKept() throws Exception {
        Path file = Files.writeString(dir.resolve("wd"), "");
        HaCfParser.Result r = parse("keepalive 1\nwatchdog " + file + "\n");
        assertThat(r.haCf().watchdog()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> assertThat(d.format()).isEqualTo(FILE
                + ":2: watchdog device " + file + " is a regular file, not a character device: name the kernel"
                + " watchdog device, e.g. /dev/watchdog"));
    }

    @Test
    void aDirectoryIsAnError() {
        HaCfParser.Result r = parse("watchdog " + dir + "\n");
        assertThat(r.haCf().watchdog()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> assertThat(d.message()).isEqualTo(
                "watchdog device " + dir + " is a directory, not a character device: name the kernel watchdog"
                        + " device, e.g. /dev/watchdog"));
    }

    @Test
    void aMissingDeviceIsAnErrorSayingWhatToLoad() {
        Path missing = dir.resolve("watchdog");
        HaCfParser.Result r = parse("watchdog " + missing + "\n");
        assertThat(r.haCf().watchdog()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(1);
            assertThat(d.message()).isEqualTo("watchdog device " + missing + " does not exist: load the watchdog driver"
                    + " (modprobe softdog, or the board's own, e.g. iTCO_wdt), or remove the line");
        });
    }

    @Test
    void aRelativePathIsAnError() {
        HaCfParser.Result r = parse("watchdog watchdog\n");
        assertThat(r.haCf().watchdog()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> assertThat(d.format()).isEqualTo(FILE
                + ":1: watchdog device [watchdog] must be a full path, e.g. /dev/watchdog"));
    }

    @Test
    void aSecondLineIsAnErrorAndTheFirstStaysASecondDeviceOnTheLineIsAnError() {
        HaCfParser.Result twoLines = parse("watchdog /dev/null\nkeepalive 1\nwatchdog /dev/zero\n");
        assertThat(twoLines.haCf().watchdog()).contains(new HaCf.Setting<>(Path.of("/dev/null"), 1));
        assertThat(twoLines.diagnostics()).singleElement().satisfies(d -> assertThat(d.format()).isEqualTo(FILE
                + ":3: watchdog may appear only once; it was already set to /dev/null on line 1: keep one"
                + " watchdog line"));
        // two devices on one line: the line is refused whole (a one-value directive given two words)
        HaCfParser.Result oneLine = parse("watchdog /dev/null /dev/zero\n");
        assertThat(oneLine.haCf().watchdog()).isEmpty();
        assertThat(oneLine.diagnostics()).singleElement().satisfies(d -> assertThat(d.line()).isEqualTo(1));
    }

    @Test
    void withoutAValueItIsAnError() {
        assertThat(parse("watchdog\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).isEqualTo("directive 'watchdog' needs a value"));
    }

    static Path mkfifo(Path p) throws Exception {
        Process mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        assertThat(mk.waitFor()).as("mkfifo %s: %s", p, new String(mk.getInputStream().readAllBytes())).isZero();
        return p;
    }
}
