package org.jheartbeat.cli.watchdog;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A kernel watchdog device ({@code /dev/watchdog}), as the kernel's watchdog API documents it
 * (Documentation/watchdog/watchdog-api.rst): opening the device starts the timer; any write restarts
 * it ("pets" it; the byte written here is NUL, never {@code 'V'}); when the timer runs out the machine
 * is reset. Writing {@code 'V'} just before closing ("magic close") stops the timer, on drivers that
 * support it and were not loaded with {@code nowayout}; closing without it (a crash, SIGKILL, the
 * JVM ending on an error) leaves the timer running, which is the point: a node whose daemon died is
 * reset unless a new daemon opens the device and pets it in time. Heartbeat 3.0.6 does the same with
 * ha.cf {@code watchdog} (facts F.2), and also sets the timeout to deadtime with an ioctl, which Java
 * cannot make: here the driver's timeout applies ({@link WatchdogDriver}).
 *
 * <p>Written through a {@link FileOutputStream}, not a {@code FileChannel}: a channel is closed by an
 * interrupt of the thread writing to it, and the loop thread is interrupted when the loop closes; a
 * device closed that way could not be given its {@code 'V'}, and a clean stop would reset the machine.
 * Thread-safe: pets (loop thread, start-up thread) and the close (main thread) are serialized, and
 * after the close a pet does nothing, so {@code 'V'} is always the last byte written.
 */
public final class Watchdog implements AutoCloseable {
    /** What a pet writes: any byte but {@code 'V'} (a {@code 'V'} would arm the magic close). */
    static final int PET = 0;
    /** The magic close character. */
    static final int MAGIC_CLOSE = 'V';

    private final Path device;
    private final FileOutputStream out;
    private boolean closed;

    private Watchdog(Path device, FileOutputStream out) {
        this.device = device;
        this.out = out;
    }

    /**
     * Opens the device for writing, which arms it. A FIFO standing in for a device (tests) waits here
     * until a reader opens it.
     *
     * @param device e.g. {@code /dev/watchdog}
     * @return the open watchdog; it must be petted from now on
     * @throws IOException when it does not exist ({@link NoSuchFileException}: never created here) or
     *                     cannot be opened; the message is the system's, e.g. "Device or resource busy"
     *                     when another program holds it
     */
    public static Watchdog open(Path device) throws IOException {
        // FileOutputStream opens with O_CREAT: refuse a missing path rather than create a file in its place
        if (!Files.exists(device)) {
            throw new NoSuchFileException(device.toString(), null, "No such file or directory");
        }
        try {
            return new Watchdog(device, new FileOutputStream(device.toFile(), true));
        } catch (java.io.FileNotFoundException e) {
            throw new IOException(systemReason(device, e), e);
        }
    }

    /**
     * Restarts the timer. Does nothing once closed.
     *
     * @throws IOException when the write fails (the device's error)
     */
    public synchronized void pet() throws IOException {
        if (!closed) {
            out.write(PET);
        }
    }

    /**
     * The orderly end: {@code 'V'}, then close, so the driver stops the timer. Only for a deliberate stop
     * (after the node released its resources, or when it never started): idempotent. The descriptor is
     * closed even if the write fails (the timer then keeps running, and the error says so).
     *
     * @throws IOException when {@code 'V'} could not be written or the close failed: the timer may still run
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.write(MAGIC_CLOSE);
        } finally {
            out.close();
        }
    }

    /** The device path as configured. */
    public Path device() {
        return device;
    }

    /** "Device or resource busy" out of Java's "/dev/watchdog (Device or resource busy)". */
    private static String systemReason(Path device, java.io.FileNotFoundException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        String prefix = device + " (";
        return m.startsWith(prefix) && m.endsWith(")") ? m.substring(prefix.length(), m.length() - 1) : m;
    }
}
