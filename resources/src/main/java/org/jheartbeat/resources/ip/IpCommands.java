package org.jheartbeat.resources.ip;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Pure argv builders for the iproute2 commands of IP address takeover. Tested on argv alone.
 *
 * @param ipProgram the {@code ip} executable, a name on {@code PATH} or an absolute path
 */
public record IpCommands(String ipProgram) {
    /** Builders for {@code ip} found on {@code PATH}. */
    public static final IpCommands DEFAULT = new IpCommands("ip");

    public IpCommands {
        Objects.requireNonNull(ipProgram, "ipProgram");
    }

    /** @return {@code ip -4 -o route show}: the main IPv4 routing table, one route per line */
    public List<String> routes() {
        return List.of(ipProgram, "-4", "-o", "route", "show");
    }

    /** @param iface interface @return {@code ip -o -4 addr show dev IFACE} */
    public List<String> show(String iface) {
        return List.of(ipProgram, "-o", "-4", "addr", "show", "dev", iface);
    }

    /**
     * @param addr the address to add
     * @return {@code ip -4 addr add IP/prefix brd +|BCAST dev IFACE [label IFACE:LABEL]}; {@code brd +}
     *         lets the kernel derive the broadcast from the prefix
     */
    public List<String> add(ResolvedIpAddr addr) {
        List<String> argv = new ArrayList<>(List.of(ipProgram, "-4", "addr", "add", addr.cidr(), "brd"));
        argv.add(addr.broadcast().orElse("+"));
        argv.add("dev");
        argv.add(addr.iface());
        addr.label().ifPresent(l -> {
            argv.add("label");
            argv.add(l);
        });
        return List.copyOf(argv);
    }

    /**
     * @param cidr  {@code IP/prefix} as currently assigned
     * @param iface interface
     * @return {@code ip -4 addr del IP/prefix dev IFACE}
     */
    public List<String> del(String cidr, String iface) {
        return List.of(ipProgram, "-4", "addr", "del", cidr, "dev", iface);
    }
}
