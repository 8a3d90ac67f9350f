package org.jheartbeat.stonith.device.apcsmart;

import com.fazecast.jSerialComm.SerialPort;
import com.fazecast.jSerialComm.SerialPortInvalidPortException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The UPS serial port through jSerialComm: 2400 baud, 8N1, no hardware or XON/XOFF flow control (facts
 * §1.1, as cluster-glue {@code APC_open_serialport}). Reads wait at most {@value #READ_TIMEOUT_MS} ms so
 * the driving loop keeps its own deadlines; writes block at most {@value #WRITE_TIMEOUT_MS} ms.
 */
final class ApcSmartLine implements AutoCloseable {
    /** Line speed, baud. */
    static final int BAUD = 2400;
    /** Longest wait for the first byte of one read, ms. */
    static final int READ_TIMEOUT_MS = 10;
    /** Write timeout, ms. */
    static final int WRITE_TIMEOUT_MS = 1000;

    private final SerialPort port;

    private ApcSmartLine(SerialPort port) {
        this.port = port;
    }

    /** @throws IOException if jSerialComm rejects or cannot open {@code device} */
    static ApcSmartLine open(Path device) throws IOException {
        SerialPort port;
        try {
            port = SerialPort.getCommPort(device.toString());
        } catch (SerialPortInvalidPortException e) {
            throw new IOException("cannot open UPS tty " + device + ": " + e.getMessage(), e);
        }
        port.setComPortParameters(BAUD, 8, SerialPort.ONE_STOP_BIT, SerialPort.NO_PARITY);
        port.setFlowControl(SerialPort.FLOW_CONTROL_DISABLED);
        port.setComPortTimeouts(SerialPort.TIMEOUT_READ_SEMI_BLOCKING | SerialPort.TIMEOUT_WRITE_BLOCKING,
                READ_TIMEOUT_MS, WRITE_TIMEOUT_MS);
        if (!port.openPort()) {
            throw new IOException("cannot open UPS tty " + device + " (error " + port.getLastErrorCode() + ")");
        }
        port.flushIOBuffers();
        return new ApcSmartLine(port);
    }

    /** @return bytes read (0 after {@value #READ_TIMEOUT_MS} ms without data), -1 on a read error */
    int read(byte[] buf) {
        return port.readBytes(buf, buf.length);
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
