package org.jheartbeat.lab.sim;

import com.fazecast.jSerialComm.SerialPort;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.time.MonotonicClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An APC Smart-UPS on a tty (the "UPS end" of a socat PTY pair, or a real port wired to a host), faithful
 * enough that cluster-glue's {@code stonith -t apcsmart} accepts it (facts stonith-sync §1.8). The protocol is
 * {@link ApcSmartUps}; this class only reads and writes the line (jSerialComm, 2400 baud 8N1, no flow
 * control, facts §1.1) and runs the lab's power commands ({@code sh -c CMD}, one at a time, in order, each
 * logged with its exit code) when the outlet goes off or on; the UPS reports the new output state once its
 * command has ended (the node really is off then). Optionally writes {@code on}/{@code off} to a
 * state file on every change.
 *
 * <p>Usage: {@code java ... org.jheartbeat.lab.sim.ApcSmartSimulator --tty PATH --on-off-command CMD
 * --on-on-command CMD [--state-file F] [--fast N]}. Stops cleanly on SIGTERM (shutdown hook).
 */
public final class ApcSmartSimulator implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApcSmartSimulator.class);
    /** Line speed, baud (facts §1.1; a pty ignores it). */
    static final int BAUD = 2400;
    /** Read poll, ms: how long one read waits for the first byte. */
    static final int READ_TIMEOUT_MS = 20;

    private final Path tty;
    private final String offCommand;
    private final String onCommand;
    private final Path stateFile;
    private final ApcSmartUps ups;
    private final MonotonicClock clock = MonotonicClock.system();
    /** Longest a power hook may run (the lab's poweroff/poweron take seconds). */
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(5);
    private final ExecutorService commands = Executors.newSingleThreadExecutor(r -> new Thread(r, "ups-power-cmd"));
    private SerialPort port;
    private Thread reader;
    private volatile boolean running;

    /**
     * @param tty        the UPS end of the line (symlinks are resolved)
     * @param offCommand shell command run when the outlet goes off; null or blank for none
     * @param onCommand  shell command run when the outlet comes on; null or blank for none
     * @param stateFile  file to hold {@code on}/{@code off}; null for none
     * @param fast       factor &ge; 1 dividing the UPS's own delays (1 = real timing)
     */
    public ApcSmartSimulator(Path tty, String offCommand, String onCommand, Path stateFile, double fast) {
        this.tty = tty;
        this.offCommand = offCommand;
        this.onCommand = onCommand;
        this.stateFile = stateFile;
        this.ups = new ApcSmartUps(fast);
    }

    /** Opens the tty and starts answering. @throws IOException if the tty cannot be opened */
    public synchronized void start() throws IOException {
        Path real = tty.toRealPath();
        port = SerialPort.getCommPort(real.toString());
        port.setComPortParameters(BAUD, 8, SerialPort.ONE_STOP_BIT, SerialPort.NO_PARITY);
        port.setFlowControl(SerialPort.FLOW_CONTROL_DISABLED);
        port.setComPortTimeouts(SerialPort.TIMEOUT_READ_SEMI_BLOCKING | SerialPort.TIMEOUT_WRITE_BLOCKING,
                READ_TIMEOUT_MS, 1000);
        if (!port.openPort()) {
            throw new IOException("cannot open UPS tty " + real + " (error " + port.getLastErrorCode() + ")");
        }
        writeState();
        running = true;
        reader = new Thread(this::serve, "ups-sim " + tty.getFileName());
        reader.setDaemon(true);
        reader.start();
        log.info("UPS simulator on {} ({}): outlet on", tty, real);
    }

    /** Whether the outlet is on. */
    public boolean outletOn() {
        return ups.outletOn();
    }

    private void serve() {
        byte[] buf = new byte[64];
        while (running) {
            int n = port.readBytes(buf, buf.length);
            long now = clock.nanoTime();
            for (int i = 0; i < n; i++) {
                byte[] reply = ups.receive(buf[i], now);
                if (reply.length > 0) {
                    port.writeBytes(reply, reply.length);
                }
            }
            if (n < 0) {
                log.warn("UPS simulator: read error {} on {}", port.getLastErrorCode(), tty);
                sleepQuietly();
            }
            ups.advance(clock.nanoTime());
            for (ApcSmartUps.Event e : ups.drainEvents()) {
                boolean on = e == ApcSmartUps.Event.OUTLET_ON;
                log.info("UPS simulator: outlet {}", on ? "on" : "off");
                writeState();
                String cmd = on ? onCommand : offCommand;
                if (cmd != null && !cmd.isBlank()) {
                    // the registers say "off" once the node has really lost power (ApcSmartUps.settled)
                    commands.execute(() -> {
                        run(cmd);
                        ups.settled(e);
                    });
                } else {
                    ups.settled(e);
                }
            }
        }
    }

    /**
     * Runs a power hook with the core runner; its output (first 64 KiB of each stream) is copied to
     * the simulator's stdout/stderr when it ends. A hook that hangs is killed with its descendants
     * after {@link #COMMAND_TIMEOUT}.
     */
    private static void run(String cmd) {
        try {
            ProcessResult r = new OsProcessRunner().run(ProcessSpec.of(COMMAND_TIMEOUT, "sh", "-c", cmd));
            System.out.print(r.stdout());
            System.out.flush();
            System.err.print(r.stderr());
            System.err.flush();
            if (r.timedOut()) {
                log.warn("UPS simulator: '{}' did not end within {} s; killed", cmd, COMMAND_TIMEOUT.toSeconds());
            } else {
                log.info("UPS simulator: '{}' exited {}", cmd, r.exitCode());
            }
        } catch (InterruptedIOException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            log.warn("UPS simulator: cannot run '{}': {}", cmd, e.getMessage());
        }
    }

    private void writeState() {
        if (stateFile == null) {
            return;
        }
        try {
            Files.writeString(stateFile, (ups.outletOn() ? "on" : "off") + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            log.warn("UPS simulator: cannot write state file {}: {}", stateFile, e.getMessage());
        }
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(READ_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops answering ("unplugs the cable"), waits for queued power commands (up to 10 s), closes the tty. */
    @Override
    public synchronized void close() {
        if (!running) {
            return;
        }
        running = false;
        try {
            reader.join(2000);
            commands.shutdown();
            commands.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        port.closePort();
        log.info("UPS simulator on {} stopped", tty);
    }

    /** Command line: see the class comment; exit 2 on a usage error, 1 if the tty cannot be opened. */
    public static void main(String[] args) throws InterruptedException {
        SimulatorOptions o;
        try {
            o = SimulatorOptions.parse(List.of(args));
        } catch (IllegalArgumentException e) {
            System.err.println("apcsmart-sim: " + e.getMessage());
            System.err.println(SimulatorOptions.USAGE);
            System.exit(2);
            return;
        }
        ApcSmartSimulator sim = new ApcSmartSimulator(o.tty(), o.offCommand(), o.onCommand(), o.stateFile(), o.fast());
        try {
            sim.start();
        } catch (IOException e) {
            System.err.println("apcsmart-sim: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            sim.close();
            stopped.countDown();
        }, "ups-sim-shutdown"));
        stopped.await();
    }
}
