package org.jheartbeat.stonith.device.apcsmart;

import com.fazecast.jSerialComm.SerialPort;
import com.fazecast.jSerialComm.SerialPortInvalidPortException;
import java.io.IOException;
import java.nio.file.Path;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * The UPS serial port through jSerialComm: 2400 baud, 8N1, no hardware or XON/XOFF flow control (facts
 * §1.1, as cluster-glue {@code APC_open_serialport}). A read waits for the first byte at most as long as its
 * caller allows, polling every {@value #POLL_MS} ms, so the driving loop keeps its own deadlines to the
 * millisecond (jSerialComm's own read timeout is a tty {@code VTIME}, whole tenths of a second: a "10 ms"
 * semi-blocking read on an idle line returns after 100 ms, which made every command of a dialogue ~50 ms
 * late). Writes block at most {@value #WRITE_TIMEOUT_MS} ms.
 */
final class ApcSmartLine implements AutoCloseable {
    /** Line speed, baud. */
    static final int BAUD = 2400;
    /** Longest wait for the first byte of one read, ms. */
    static final int READ_TIMEOUT_MS = 10;
    /** How often a waiting read looks for input, ms. */
    static final int POLL_MS = 2;
    /** Write timeout, ms. */
    static final int WRITE_TIMEOUT_MS = 1000;

    private final SerialPort port;
    private final MonotonicClock clock;

    private ApcSmartLine(SerialPort port, MonotonicClock clock) {
        this.port = port;
        this.clock = clock;
    }

    /**
     * @param clock where a read's wait is measured (the dialogue's clock)
     * @throws IOException if jSerialComm rejects or cannot open {@code device}
     */
    static ApcSmartLine open(Path device, MonotonicClock clock) throws IOException {
        SerialPort port;
        try {
            port = SerialPort.getCommPort(device.toString());
        } catch (SerialPortInvalidPortException e) {
            throw new IOException("cannot open UPS tty " + device + ": " + e.getMessage(), e);
        }
        port.setComPortParameters(BAUD, 8, SerialPort.ONE_STOP_BIT, SerialPort.NO_PARITY);
        port.setFlowControl(SerialPort.FLOW_CONTROL_DISABLED);
        port.setComPortTimeouts(SerialPort.TIMEOUT_NONBLOCKING | SerialPort.TIMEOUT_WRITE_BLOCKING,
                0, WRITE_TIMEOUT_MS);
        if (!port.openPort()) {
            throw new IOException("cannot open UPS tty " + device + " (error " + port.getLastErrorCode() + ")");
        }
        port.flushIOBuffers();
        return new ApcSmartLine(port, clock);
    }

    /**
     * Reads what has arrived, waiting at most {@code maxWaitMs} ms (0: do not wait) for the first byte.
     *
     * @return bytes read (0 when nothing arrived in time), -1 on a read error (the line is gone)
     */
    int read(byte[] buf, long maxWaitMs) {
        long until = clock.nanoTime() + Math.max(0, maxWaitMs) * 1_000_000L;
        // an interrupt does not cut a dialogue short (as the blocking native read before): keep it for the caller
        boolean interrupted = Thread.interrupted();
        try {
            return poll(buf, until);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private int poll(byte[] buf, long until) {
        while (true) {
            int available = port.bytesAvailable();
            if (available < 0) {
                return -1;
            }
            if (available > 0) {
                return port.readBytes(buf, Math.min(available, buf.length));
            }
            long left = until - clock.nanoTime();
            if (left <= 0) {
                return 0;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Math.min(left, POLL_MS * 1_000_000L));
        }
    }

    /** @return whether all of {@code data} was written */
    boolean write(byte[] data) {
        return port.writeBytes(data, data.length) == data.length;
    }

    @Override
    public void close() {
        port.closePort();
    }
}
