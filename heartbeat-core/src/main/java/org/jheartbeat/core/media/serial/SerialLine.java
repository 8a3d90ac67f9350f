package org.jheartbeat.core.media.serial;

import com.fazecast.jSerialComm.SerialPort;
import com.fazecast.jSerialComm.SerialPortInvalidPortException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One open serial device, through jSerialComm; the only class that touches {@link SerialPort}.
 *
 * <p>Settings: {@code baud} 8N1, no flow control, reads in {@code TIMEOUT_READ_SEMI_BLOCKING} mode
 * with a 100 ms timeout (STYLE: dedicated reader thread), writes in {@code TIMEOUT_WRITE_BLOCKING}
 * mode with Heartbeat's 500 ms write alarm as the timeout. Heartbeat 3.0.6 {@code serial.c}
 * ({@code ttysetup}) sets {@code CRTSCTS} hardware flow control, strips the 8th bit ({@code ISTRIP})
 * and sends a break at open (facts G.1). This line uses no flow control: pseudo-terminals (socat pairs,
 * the tested case) have no RTS/CTS lines, and a null-modem cable without RTS/CTS wired would block
 * forever with it; the writer paces itself at the line rate instead ({@link SerialPacer}). No break is
 * sent (pseudo-terminals ignore it) and no bit is stripped (classic frames are ASCII). Like
 * {@code ttysetup}'s final flush, both kernel queues are discarded right after open: bytes a previous
 * run left unread (frames from before, possibly of an older generation) are never taken for news.
 *
 * <p>jSerialComm does not honour the write timeout on a pseudo-terminal: a write into a full PTY
 * blocks until the peer reads or the PTY goes away. {@link SerialMedium} watches for that itself.
 */
final class SerialLine {
    /** Read timeout, ms: how long one read waits for the first byte. */
    static final int READ_TIMEOUT_MS = 100;
    /** Write timeout, ms, as Heartbeat's 500 ms alarm around each fragment write. */
    static final int WRITE_TIMEOUT_MS = 500;

    private final SerialPort port;
    private final Path device;

    private SerialLine(SerialPort port, Path device) {
        this.port = port;
        this.device = device;
    }

    /**
     * Opens {@code device} (an already resolved character device path) at {@code baud}, 8N1.
     *
     * @throws IOException if jSerialComm rejects the path or cannot open or configure the port
     */
    static SerialLine open(Path device, int baud) throws IOException {
        SerialPort port;
        try {
            port = SerialPort.getCommPort(device.toString());
        } catch (SerialPortInvalidPortException e) {
            throw new IOException("cannot open serial device " + device + ": " + e.getMessage(), e);
        }
        port.setComPortParameters(baud, 8, SerialPort.ONE_STOP_BIT, SerialPort.NO_PARITY);
        port.setFlowControl(SerialPort.FLOW_CONTROL_DISABLED);
        port.setComPortTimeouts(SerialPort.TIMEOUT_READ_SEMI_BLOCKING | SerialPort.TIMEOUT_WRITE_BLOCKING,
                READ_TIMEOUT_MS, WRITE_TIMEOUT_MS);
        if (!port.openPort()) {
            throw new IOException("cannot open serial device " + device + " as a serial line (error "
                    + port.getLastErrorCode() + " at " + port.getLastErrorLocation() + "): is it a serial port"
                    + " (a tty), and is the port there? (dmesg | grep tty)");
        }
        // Heartbeat 3.0.6 serial.c ttysetup: FLUSH(fd) "for good measure" (tcflush TCIOFLUSH)
        port.flushIOBuffers();
        return new SerialLine(port, device);
    }

    /** The resolved device this line has open. */
    Path device() {
        return device;
    }

    /**
     * Reads what is available, waiting up to {@link #READ_TIMEOUT_MS} for the first byte.
     *
     * @return bytes read; 0 on timeout; -1 on a read error (device gone, hung up)
     */
    int read(byte[] buf) {
        return port.readBytes(buf, buf.length);
    }

    /**
     * Writes {@code len} bytes of {@code data} from {@code off}.
     *
     * @return bytes written (fewer than {@code len} on a write timeout); -1 on a write error
     */
    int write(byte[] data, int off, int len) {
        return port.writeBytes(data, len, off);
    }

    /** The OS error code of the last failed call (errno on Linux). */
    int lastErrorCode() {
        return port.getLastErrorCode();
    }

    /** Closes the port; idempotent. */
    void close() {
        port.closePort();
    }
}
