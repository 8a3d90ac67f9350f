package org.jheartbeat.sync.replication;

import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A progress stream that holds a run inside rsync: the first write signals {@link #awaitInside}
 * and blocks until {@link #release}. Lets a test keep a real run in flight while it checks locks.
 */
final class BlockingOutput extends OutputStream {
    private final CountDownLatch inside = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        inside.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return whether a run wrote progress (and is now held) within 10 s */
    boolean awaitInside() throws InterruptedException {
        return inside.await(10, TimeUnit.SECONDS);
    }

    /** Lets the held run go on. */
    void release() {
        release.countDown();
    }
}
