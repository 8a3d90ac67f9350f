package org.jheartbeat.director.table;

import java.util.List;
import java.util.Optional;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;

/**
 * Reads one ipvsadm table command ({@code -A}, {@code -E}, {@code -D}, {@code -a}, {@code -e},
 * {@code -d} with their options, as ipvsadm 1.31's man page gives them) back into a
 * {@link TableCommand}; used to read {@code ipvsadm -S -n} output.
 */
public final class IpvsadmSyntax {
    private IpvsadmSyntax() {
    }

    /**
     * Parses the arguments of one command (a leading {@code ipvsadm} is skipped).
     *
     * @return the command, or empty if the arguments are not a valid table command
     */
    public static Optional<TableCommand> parse(List<String> argv) {
        List<String> a = !argv.isEmpty() && argv.get(0).equals("ipvsadm") ? argv.subList(1, argv.size()) : argv;
        if (a.isEmpty()) {
            return Optional.empty();
        }
        String op = a.get(0);
        Protocol proto = null;
        String addr = null;
        boolean v6 = false;
        String sched = "wlc";
        Integer persistent = null;
        String mask = null;
        boolean ops = false;
        String flags = null;
        String real = null;
        Forward fwd = Forward.GATE;
        int weight = 1;
        int upper = 0;
        int lower = 0;
        boolean thresholds = false;
        try {
            for (int i = 1; i < a.size(); i++) {
                String o = a.get(i);
                switch (o) {
                    case "-t", "-u", "-f", "--tcp-service", "--udp-service", "--fwmark-service" -> {
                        proto = Protocol.fromIpvsadmOption(o).orElseThrow();
                        addr = a.get(++i);
                    }
                    case "-6", "--ipv6" -> v6 = true;
                    case "-s", "--scheduler" -> sched = a.get(++i);
                    case "-p", "--persistent" -> {
                        if (i + 1 < a.size() && a.get(i + 1).matches("[0-9]+")) {
                            persistent = Integer.parseInt(a.get(++i));
                        } else {
                            persistent = 360;
                        }
                    }
                    case "-M", "--netmask" -> mask = a.get(++i);
                    case "-o", "--ops" -> ops = true;
                    case "-b", "--sched-flags" -> flags = a.get(++i);
                    case "-r", "--real-server" -> real = a.get(++i);
                    case "-g", "--gatewaying", "-m", "--masquerading", "-i", "--ipip" ->
                            fwd = Forward.fromIpvsadmOption(o).orElseThrow();
                    case "-w", "--weight" -> weight = Integer.parseInt(a.get(++i));
                    case "-x", "--u-threshold" -> {
                        upper = Integer.parseInt(a.get(++i));
                        thresholds = true;
                    }
                    case "-y", "--l-threshold" -> {
                        lower = Integer.parseInt(a.get(++i));
                        thresholds = true;
                    }
                    default -> {
                        return Optional.empty();
                    }
                }
            }
            if (proto == null) {
                return Optional.empty();
            }
            ServiceKey key = proto == Protocol.FWM ? ServiceKey.fwmark(Long.parseLong(addr), v6)
                    : ServiceKey.of(proto, IpvsadmText.endpoint(addr));
            ServiceSpec spec = new ServiceSpec(key, sched, Optional.ofNullable(persistent), Optional.ofNullable(mask),
                    ops, Optional.ofNullable(flags));
            switch (op) {
                case "-A", "--add-service":
                    return Optional.of(new TableCommand.AddService(spec));
                case "-E", "--edit-service":
                    return Optional.of(new TableCommand.EditService(spec));
                case "-D", "--delete-service":
                    return Optional.of(new TableCommand.DeleteService(key));
                case "-a", "--add-server", "-e", "--edit-server":
                    if (real == null) {
                        return Optional.empty();
                    }
                    Endpoint ep = IpvsadmText.endpoint(real.contains(":") && !real.endsWith("]") ? real
                            : real + ":" + key.port());
                    return Optional.of(new TableCommand.SetReal(key, new RealSpec(ep, fwd, weight, upper, lower),
                            op.startsWith("-e") || op.equals("--edit-server"), thresholds));
                case "-d", "--delete-server":
                    if (real == null) {
                        return Optional.empty();
                    }
                    return Optional.of(new TableCommand.DeleteReal(key, IpvsadmText.endpoint(real)));
                default:
                    return Optional.empty();
            }
        } catch (IndexOutOfBoundsException | IllegalArgumentException | java.util.NoSuchElementException
                 | IpvsadmText.FormatException e) {
            return Optional.empty();
        }
    }
}
