package org.jheartbeat.lab.sim;

import java.nio.file.Path;
import java.util.List;

/**
 * Command-line options of {@link ApcSmartSimulator}.
 *
 * @param fast factor &ge; 1 dividing the UPS's own delays (grace, off time); 1 = real timing
 */
record SimulatorOptions(Path tty, String offCommand, String onCommand, Path stateFile, double fast) {
    static final String USAGE = """
            usage: ApcSmartSimulator --tty PATH --on-off-command CMD --on-on-command CMD [--state-file F] [--fast N]
              --tty PATH            UPS end of the serial line (e.g. a socat PTY link)
              --on-off-command CMD  run with sh -c when the outlet goes off
              --on-on-command CMD   run with sh -c when the outlet comes back on
              --state-file F        keep 'on' or 'off' in F
              --fast N              divide the UPS's grace/off delays by N (>= 1; default 1)
            exit: 0 stopped by SIGTERM, 1 tty cannot be opened, 2 usage error""";

    /** @throws IllegalArgumentException naming the bad or missing option */
    static SimulatorOptions parse(List<String> args) {
        Path tty = null;
        String off = null;
        String on = null;
        Path state = null;
        double fast = 1;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-h") || a.equals("--help")) {
                throw new IllegalArgumentException("help requested");
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException("missing value after " + a);
            }
            String v = args.get(++i);
            switch (a) {
                case "--tty" -> tty = Path.of(v);
                case "--on-off-command" -> off = v;
                case "--on-on-command" -> on = v;
                case "--state-file" -> state = Path.of(v);
                case "--fast" -> {
                    try {
                        fast = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--fast wants a number >= 1, not " + v);
                    }
                    if (!(fast >= 1)) {
                        throw new IllegalArgumentException("--fast wants a number >= 1, not " + v);
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (tty == null || off == null || on == null) {
            throw new IllegalArgumentException("--tty, --on-off-command and --on-on-command are required");
        }
        return new SimulatorOptions(tty, off, on, state, fast);
    }
}
