package org.jheartbeat.director.topology;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The two {@code ip -j} answers the LVS-DR check reads (iproute2's JSON output): {@code ip -j addr} (one object
 * per interface, {@code ifname} and {@code addr_info[]} with {@code local}, {@code prefixlen}, {@code scope}) and
 * {@code ip -j route get ADDR} (one object: {@code dev}, {@code gateway} when routed, {@code type} {@code local}
 * for one of this host's addresses). Read with jackson-core's parser; fields it does not need are skipped.
 */
public final class IpJson {
    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private IpJson() {
    }

    /**
     * One address of one interface.
     *
     * @param device       the interface ({@code eth0})
     * @param address      the address
     * @param prefixLength the subnet's prefix length (24 for a /24)
     * @param scope        {@code global}, {@code link} or {@code host}
     */
    public record InterfaceAddress(String device, InetAddress address, int prefixLength, String scope) {
        public InterfaceAddress {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(scope, "scope");
        }

        /** Whether {@code other} is in this address's subnet (same family, same first prefixLength bits). */
        public boolean subnetContains(InetAddress other) {
            byte[] a = address.getAddress();
            byte[] b = other.getAddress();
            if (a.length != b.length) {
                return false;
            }
            int bits = prefixLength;
            for (int i = 0; i < a.length && bits > 0; i++, bits -= 8) {
                int mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
                if ((a[i] & mask) != (b[i] & mask)) {
                    return false;
                }
            }
            return true;
        }

        /** {@code 198.18.0.2/24 on eth0}. */
        @Override
        public String toString() {
            return address.getHostAddress() + "/" + prefixLength + " on " + device;
        }
    }

    /**
     * The kernel's route to one address.
     *
     * @param device  the interface packets leave by ({@code lo} for one of this host's addresses)
     * @param gateway the next hop, when the address is not on a directly connected subnet
     * @param local   the address is this host's own ({@code type local})
     */
    public record Route(String device, Optional<InetAddress> gateway, boolean local) {
        public Route {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(gateway, "gateway");
        }
    }

    /**
     * The addresses in {@code ip -j addr}'s output.
     *
     * @throws IOException if the text is not that JSON
     */
    public static List<InterfaceAddress> addresses(String json) throws IOException {
        List<InterfaceAddress> out = new ArrayList<>();
        for (Object o : array(json)) {
            Map<?, ?> iface = (Map<?, ?>) o;
            Object name = iface.get("ifname");
            Object infos = iface.get("addr_info");
            if (!(name instanceof String dev) || !(infos instanceof List<?> list)) {
                continue;
            }
            for (Object i : list) {
                Map<?, ?> info = (Map<?, ?>) i;
                if (info.get("local") instanceof String local && info.get("prefixlen") instanceof Long len) {
                    out.add(new InterfaceAddress(dev, numeric(local), len.intValue(),
                            info.get("scope") instanceof String sc ? sc : "global"));
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * The route in {@code ip -j route get ADDR}'s output.
     *
     * @throws IOException if the text is not that JSON or holds no route
     */
    public static Route route(String json) throws IOException {
        List<Object> a = array(json);
        if (a.isEmpty() || !(a.get(0) instanceof Map<?, ?> r) || !(r.get("dev") instanceof String dev)) {
            throw new IOException("no route in: " + json.strip());
        }
        Optional<InetAddress> gw = r.get("gateway") instanceof String g ? Optional.of(numeric(g)) : Optional.empty();
        return new Route(dev, gw, "local".equals(r.get("type")));
    }

    private static InetAddress numeric(String text) throws IOException {
        if (!text.matches("[0-9a-fA-F:.]+")) {
            throw new IOException("not a numeric address: " + text);
        }
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IOException("not a numeric address: " + text, e);
        }
    }

    /**
     * Any JSON text as a tree: objects as ordered maps, arrays as lists, integers as longs, booleans, nulls
     * and every other value as its text (jackson-core's streaming parser; no data binding).
     *
     * @throws IOException if the text is not one complete JSON value
     */
    public static Object tree(String json) throws IOException {
        try (JsonParser p = FACTORY.createParser(json)) {
            p.nextToken();
            return value(p);
        }
    }

    private static List<Object> array(String json) throws IOException {
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw new IOException("expected a JSON array from ip -j, got: " + abbreviate(json));
            }
            @SuppressWarnings("unchecked")
            List<Object> l = (List<Object>) value(p);
            return l;
        }
    }

    private static Object value(JsonParser p) throws IOException {
        if (p.currentToken() == null) {
            throw new IOException("the JSON from ip -j ends too soon");
        }
        switch (p.currentToken()) {
            case START_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String k = p.currentName();
                    p.nextToken();
                    m.put(k, value(p));
                }
                return m;
            }
            case START_ARRAY: {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(value(p));
                }
                return l;
            }
            case VALUE_NUMBER_INT:
                return p.getLongValue();
            case VALUE_NULL:
                return null;
            case VALUE_TRUE:
            case VALUE_FALSE:
                return p.getBooleanValue();
            default:
                return p.getText();
        }
    }

    private static String abbreviate(String s) {
        String t = s.strip();
        return t.length() > 80 ? t.substring(0, 80) + "..." : t;
    }
}
