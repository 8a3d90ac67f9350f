package org.jheartbeat.cli.logging;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * An output that blocks every write until {@link #release()}, like a pipe nobody reads; records what
 * it was given afterwards.
 */
final class BlockingOutput extends OutputStream {
    private final CountDownLatch released = new CountDownLatch(1);
    final CountDownLatch entered = new CountDownLatch(1);
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        entered.countDown();
        try {
            released.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        synchronized (written) {
            written.write(b, off, len);
        }
    }

    void release() {
        released.countDown();
    }

    String text() {
        synchronized (written) {
            return written.toString(StandardCharsets.UTF_8);
        }
    }
}
