package org.jheartbeat.core.media.serial;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A uucp-style line lock: the file {@code <lockDir>/LCK..<device basename>} holding the owner's pid as
 * ASCII in {@code %10d\n} form (11 bytes), as Heartbeat 3.0.6 takes for its serial ports
 * ({@code serial.c} via cluster-glue {@code cl_lock}/{@code ttylock}; facts G.1). A lock whose pid is
 * no longer alive (or unreadable) is stale and taken over.
 *
 * <p>The file is created atomically: the content is written to a temporary file in the same directory,
 * which is then hard-linked to the lock name (the link fails if the lock exists).
 */
public final class UucpLock {
    private final Path file;
    private final long pid;
    private boolean released;

    private UucpLock(Path file, long pid) {
        this.file = file;
        this.pid = pid;
    }

    /** The default lock directory: {@code /run/lock} if it is a writable directory, else {@code /var/lock}. */
    public static Path defaultDirectory() {
        Path run = Path.of("/run/lock");
        return Files.isDirectory(run) && Files.isWritable(run) ? run : Path.of("/var/lock");
    }

    /** The lock file name for a device: {@code LCK..} + the last path element of the resolved device. */
    public static String fileName(Path resolvedDevice) {
        return "LCK.." + resolvedDevice.getFileName();
    }

    /**
     * Takes the lock for {@code resolvedDevice} on behalf of process {@code pid}.
     *
     * @throws IOException if a live process (this one included) holds it, naming the pid, or if the
     *                     lock directory is missing or not writable
     */
    public static UucpLock acquire(Path lockDir, Path resolvedDevice, long pid) throws IOException {
        return acquire(lockDir, fileName(resolvedDevice), resolvedDevice, pid);
    }

    /**
     * Takes the lock named {@code lockName} (e.g. {@code LCK..ttyS1}) in {@code lockDir} for {@code device}
     * on behalf of process {@code pid}; for callers that must share a lock name computed another way (the
     * STONITH devices use cluster-glue's {@code st_ttylock.c} spelling).
     *
     * @throws IOException if a live process (this one included) holds it, naming the pid, or if the
     *                     lock directory is missing or not writable
     */
    public static UucpLock acquire(Path lockDir, String lockName, Path device, long pid) throws IOException {
        Path resolvedDevice = device;
        if (!Files.isDirectory(lockDir)) {
            throw new IOException("cannot lock line " + resolvedDevice + ": lock directory " + lockDir + " does not exist");
        }
        Path lock = lockDir.resolve(lockName);
        Path tmp = Files.createTempFile(lockDir, "LTMP.", "." + pid);
        try {
            Files.write(tmp, String.format("%10d\n", pid).getBytes(US_ASCII));
            for (int attempt = 0; attempt < 3; attempt++) {
                try {
                    Files.createLink(lock, tmp);
                    return new UucpLock(lock, pid);
                } catch (FileAlreadyExistsException held) {
                    Optional<Long> owner = readPid(lock);
                    if (owner.isPresent() && isLive(owner.get())) {
                        throw new IOException("cannot lock line " + resolvedDevice + ": " + lock
                                + " is held by live pid " + owner.get());
                    }
                    Files.deleteIfExists(lock); // stale: dead or unreadable owner
                }
            }
            throw new IOException("cannot lock line " + resolvedDevice + ": " + lock + " keeps reappearing");
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Whether {@code pid} is a live process: it exists and is not a zombie (state {@code Z} or
     * {@code X} in {@code /proc/PID/stat}). A daemon killed with SIGKILL whose parent has not reaped
     * it yet is a zombie: it holds no line, so its lock is stale (as cluster-glue's {@code kill(pid, 0)}
     * check would say otherwise, we read the state, as the lab's scripts do).
     */
    static boolean isLive(long pid) {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), US_ASCII);
            int end = stat.lastIndexOf(')');
            if (end < 0 || end + 2 >= stat.length()) {
                return true;
            }
            char state = stat.charAt(end + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            return !Files.notExists(Path.of("/proc", Long.toString(pid)));
        }
    }

    /** The lock file. */
    public Path file() {
        return file;
    }

    /** Removes the lock file if it still holds our pid; idempotent, never throws. */
    public synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        try {
            if (readPid(file).filter(p -> p == pid).isPresent()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // nothing more to do: a leftover lock with our pid is stale once we exit
        }
    }

    /** The pid in a lock file; empty if the file is unreadable or not a number. */
    static Optional<Long> readPid(Path lock) throws IOException {
        byte[] content;
        try {
            content = Files.readAllBytes(lock);
        } catch (NoSuchFileException gone) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(new String(content, US_ASCII).trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
