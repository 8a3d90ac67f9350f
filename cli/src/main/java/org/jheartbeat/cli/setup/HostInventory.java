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
     * @param prefix       the prefix length of that address, 1..32 ({@code 24} for {@code 198.18.0.1/24}); 0 when
     *                     unknown (then its subnet is not checked)
     */
    public record Iface(String name, String address, boolean defaultRoute, int prefix) {
        /** An interface whose prefix is not known. */
        public Iface(String name, String address, boolean defaultRoute) {
            this(name, address, defaultRoute, 0);
        }

        /** {@code ADDRESS/PREFIX} as {@code ip addr} shows it, or the address alone when the prefix is unknown. */
        public String cidr() {
            return prefix == 0 ? address : address + "/" + prefix;
        }
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
        java.util.Map<String, String> primary = primaryAddresses();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (ni.isLoopback() || !ni.isUp()) {
                    continue;
                }
                // the primary address: a cluster address added later (a VIP) must not be taken for the node's own
                Optional<String> addr = Optional.ofNullable(primary.get(ni.getName())).or(() -> ni
                        .getInterfaceAddresses().stream().filter(a -> a.getAddress() instanceof Inet4Address)
                        .map(a -> a.getAddress().getHostAddress() + "/" + a.getNetworkPrefixLength()).findFirst());
                addr.ifPresent(a -> ifaces.add(iface(ni.getName(), a, defaults.contains(ni.getName()))));
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

    /** An interface from {@code ADDRESS/PREFIX} (the prefix unknown, 0, if it is missing or not a number). */
    static Iface iface(String name, String cidr, boolean defaultRoute) {
        int slash = cidr.indexOf('/');
        int prefix = 0;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(cidr.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = 0;
            }
        }
        return new Iface(name, slash < 0 ? cidr : cidr.substring(0, slash), defaultRoute,
                prefix >= 1 && prefix <= 32 ? prefix : 0);
    }

    /**
     * Per interface its first IPv4 address that is not {@code secondary}, as {@code ADDRESS/PREFIX}, from
     * {@code ip -o -4 addr show} (the kernel lists primaries first; the JDK's order is not the kernel's). Empty if
     * {@code ip} cannot be run.
     */
    static java.util.Map<String, String> primaryAddresses() {
        java.util.Map<String, String> m = new java.util.HashMap<>();
        try {
            org.jheartbeat.core.exec.ProcessResult r = new org.jheartbeat.core.exec.OsProcessRunner().run(
                    org.jheartbeat.core.exec.ProcessSpec.of(java.time.Duration.ofSeconds(10), "ip", "-o", "-4", "addr",
                            "show"));
            primaryAddresses(r.exitCode() == 0 ? r.stdout() : "").forEach(m::putIfAbsent);
        } catch (IOException e) {
            // the JDK's first address is used
        }
        return m;
    }

    /**
     * {@link #primaryAddresses()}' parser: lines such as {@code 2: eth0    inet 198.18.0.1/24 brd ... scope global
     * eth0} give {@code eth0 -> 198.18.0.1/24}.
     */
    static java.util.Map<String, String> primaryAddresses(String ipOutput) {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        for (String line : ipOutput.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length > 3 && f[2].equals("inet") && !line.contains(" secondary ")) {
                m.putIfAbsent(f[1].replaceFirst("@.*", ""), f[3]);
            }
        }
        return m;
    }

    private static boolean uart(String tty) {
        try {
            return !Files.readString(Path.of("/sys/class/tty", tty, "type")).trim().equals("0");
        } catch (IOException e) {
            return false;
        }
    }
}
