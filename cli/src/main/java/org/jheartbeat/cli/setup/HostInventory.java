package org.jheartbeat.cli.setup;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What links this machine offers {@code hb setup}: its interfaces that are up with an IPv4 address (one
 * without the default route is a crossover candidate) and its serial ports that have hardware behind them.
 * These are offered at the prompts, never picked silently.
 *
 * @param interfaces the interfaces, loopback excluded, in name order
 * @param serials    the serial ports' device paths
 */
public record HostInventory(List<Iface> interfaces, List<String> serials) {
    public HostInventory {
        interfaces = List.copyOf(interfaces);
        serials = List.copyOf(serials);
    }

    /**
     * One interface.
     *
     * @param name         e.g. {@code eth1}
     * @param address      its first IPv4 address
     * @param defaultRoute whether the default route goes through it (then it is the LAN, not a crossover cable)
     */
    public record Iface(String name, String address, boolean defaultRoute) {
    }

    /** The interface named {@code name}, if it is up with an IPv4 address. */
    public Optional<Iface> iface(String name) {
        return interfaces.stream().filter(i -> i.name().equals(name)).findFirst();
    }

    /** The interfaces without the default route: crossover cable candidates. */
    public List<String> crossoverCandidates() {
        return interfaces.stream().filter(i -> !i.defaultRoute()).map(Iface::name).toList();
    }

    /**
     * Reads this machine: interfaces from the JDK, the default route from {@code /proc/net/route}, serial ports
     * from {@code /dev} ({@code ttyUSB*}, {@code ttyACM*}, and {@code ttyS*} whose {@code /sys/class/tty/NAME/type}
     * is not 0, the kernel's "no UART here").
     */
    public static HostInventory read() {
        Set<String> defaults = new TreeSet<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/net/route"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 2 && f[1].equals("00000000")) {
                    defaults.add(f[0]);
                }
            }
        } catch (IOException e) {
            // no routes readable: no interface is marked as the LAN
        }
        List<Iface> ifaces = new ArrayList<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (ni.isLoopback() || !ni.isUp()) {
                    continue;
                }
                ni.inetAddresses().filter(a -> a instanceof Inet4Address).findFirst().ifPresent(a ->
                        ifaces.add(new Iface(ni.getName(), a.getHostAddress(), defaults.contains(ni.getName()))));
            }
        } catch (SocketException e) {
            // none offered; the user names them
        }
        ifaces.sort(java.util.Comparator.comparing(Iface::name));
        List<String> serials = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of("/dev"))) {
            s.map(p -> p.getFileName().toString()).sorted().forEach(n -> {
                if (n.matches("ttyUSB\\d+|ttyACM\\d+") || n.matches("ttyS\\d+") && uart(n)) {
                    serials.add("/dev/" + n);
                }
            });
        } catch (IOException e) {
            // none offered
        }
        return new HostInventory(ifaces, serials);
    }

    private static boolean uart(String tty) {
        try {
            return !Files.readString(Path.of("/sys/class/tty", tty, "type")).trim().equals("0");
        } catch (IOException e) {
            return false;
        }
    }
}
