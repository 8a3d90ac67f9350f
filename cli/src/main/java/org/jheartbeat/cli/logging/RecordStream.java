package org.jheartbeat.cli.logging;

import java.io.OutputStream;

/**
 * An output stream that takes whole log records, each as one {@link #write(byte[], int, int)}, and hands
 * each on at once (a line appended to a file, a syslog datagram): nothing is buffered, so {@link #flush}
 * has nothing to do. It remembers whether its last write failed, for the appender's state and tests.
 */
abstract class RecordStream extends OutputStream {
    /** Whether the last write failed; set and cleared by the subclass's {@code write}. */
    protected boolean failing;

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public abstract void write(byte[] b, int off, int len);

    /** Nothing is buffered: every record is one write. */
    @Override
    public void flush() {
    }

    /** Whether the last write failed (records are being lost). */
    public boolean failing() {
        return failing;
    }
}
