package org.jheartbeat.sync.replication;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM (single-file source launch) that locks a file the way {@code hb sync run} in
 * another process would: {@link #hold} keeps the lock until {@link #close}, {@link #probe} tells
 * whether another process could take the lock right now.
 */
final class OtherProcessLock implements AutoCloseable {
    private static final String SOURCE = """
            import java.nio.ByteBuffer;
            import java.nio.channels.FileChannel;
            import java.nio.channels.FileLock;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;
            public class LockChild {
                public static void main(String[] a) throws Exception {
                    try (FileChannel ch = FileChannel.open(Path.of(a[1]), StandardOpenOption.CREATE,
                            StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                        FileLock l = ch.tryLock();
                        if (a[0].equals("probe")) {
                            System.out.println(l == null ? "busy" : "free");
                            return;
                        }
                        ch.truncate(0);
                        ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\\n").getBytes()), 0);
                        System.out.println(l == null ? "busy" : "locked");
                        System.out.flush();
                        System.in.read();
                    }
                }
            }
            """;

    private final Process process;
    private final String firstLine;

    private OtherProcessLock(Process process) throws IOException {
        this.process = process;
        BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.firstLine = r.readLine();
    }

    private static Process start(Path dir, String mode, Path lockFile) throws IOException {
        Path src = dir.resolve("LockChild.java");
        Files.writeString(src, SOURCE);
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(java, src.toString(), mode, lockFile.toString()).redirectErrorStream(true).start();
    }

    /** Starts a process that holds the lock; returns once it has it. */
    static OtherProcessLock hold(Path dir, Path lockFile) throws IOException {
        OtherProcessLock l = new OtherProcessLock(start(dir, "hold", lockFile));
        if (!"locked".equals(l.firstLine)) {
            throw new IllegalStateException("child did not get the lock: " + l.firstLine);
        }
        return l;
    }

    /** @return "free" or "busy", as seen from another process */
    static String probe(Path dir, Path lockFile) throws Exception {
        OtherProcessLock l = new OtherProcessLock(start(dir, "probe", lockFile));
        l.process.waitFor(30, TimeUnit.SECONDS);
        return l.firstLine;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws Exception {
        process.getOutputStream().close();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
