package org.jheartbeat.resources.ip;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.Ipv4;

/**
 * IPv4 addresses assigned to interfaces, as printed by {@code ip -o -4 addr show [dev IFACE]}
 * (iproute2 one-line form: {@code 3: eth0    inet 198.18.0.1/24 brd 198.18.0.255 scope global
 * eth0\ ...}). Lines without an {@code inet} word are skipped. Pure.
 */
public final class AddressTable {
    /**
     * One assigned address.
     *
     * @param iface   interface name as printed (without {@code @peer} suffix)
     * @param address dotted quad
     * @param prefix  prefix length 0..32
     */
    public record Assigned(String iface, String address, int prefix) {
        /** @return {@code address/prefix} */
        public String cidr() {
            return address + "/" + prefix;
        }
    }

    private final List<Assigned> addresses;

    private AddressTable(List<Assigned> addresses) {
        this.addresses = List.copyOf(addresses);
    }

    /**
     * @param output text of {@code ip -o -4 addr show}
     * @return the addresses in output order
     */
    public static AddressTable parse(String output) {
        List<Assigned> result = new ArrayList<>();
        for (String line : output.split("\n")) {
            String[] words = line.strip().split("\\s+");
            for (int w = 2; w + 1 < words.length; w++) {
                if (!words[w].equals("inet")) {
                    continue;
                }
                String iface = words[1].endsWith(":") ? words[1].substring(0, words[1].length() - 1) : words[1];
                int at = iface.indexOf('@');
                iface = at < 0 ? iface : iface.substring(0, at);
                String cidr = words[w + 1];
                int slash = cidr.indexOf('/');
                try {
                    String address = slash < 0 ? cidr : cidr.substring(0, slash);
                    Ipv4.parse(address);
                    int prefix = slash < 0 ? 32 : Integer.parseInt(cidr.substring(slash + 1));
                    result.add(new Assigned(iface, address, prefix));
                } catch (IllegalArgumentException e) {
                    // not an address we understand: skip the line
                }
                break;
            }
        }
        return new AddressTable(result);
    }

    /** @return all addresses, in output order */
    public List<Assigned> addresses() {
        return addresses;
    }

    /**
     * @param iface   interface name
     * @param address dotted quad
     * @return the assignment of {@code address} on {@code iface}, whatever its prefix
     */
    public Optional<Assigned> find(String iface, String address) {
        return addresses.stream().filter(a -> a.iface().equals(iface) && a.address().equals(address)).findFirst();
    }
}
