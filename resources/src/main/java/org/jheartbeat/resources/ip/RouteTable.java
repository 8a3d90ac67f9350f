package org.jheartbeat.resources.ip;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.config.Ipv4;

/**
 * The IPv4 main routing table as printed by {@code ip -4 -o route show} (iproute2), reduced to
 * what address takeover needs: non-default unicast routes that name a {@code dev}. Lines that are
 * default routes, of another type ({@code unreachable}, {@code blackhole}, {@code prohibit},
 * {@code throw}, {@code local}, {@code broadcast}, {@code multicast}, ...), multipath routes
 * without a top-level {@code dev}, or that do not parse are skipped. Pure.
 */
public final class RouteTable {
    private static final Set<String> SKIPPED_TYPES = Set.of("unreachable", "blackhole", "prohibit", "throw",
            "local", "broadcast", "multicast", "anycast", "nat");

    private final List<Route> routes;

    /** @param routes routes in table order */
    public RouteTable(List<Route> routes) {
        this.routes = List.copyOf(routes);
    }

    /**
     * @param output the text of {@code ip -4 -o route show}, one route per line
     * @return the usable routes, in output order
     */
    public static RouteTable parse(String output) {
        List<Route> routes = new ArrayList<>();
        for (String line : output.split("\n")) {
            parseLine(line).ifPresent(routes::add);
        }
        return new RouteTable(routes);
    }

    /**
     * @param line one line of route output
     * @return the route, or empty if the line is not a usable route
     */
    static Optional<Route> parseLine(String line) {
        String[] words = line.strip().split("\\s+");
        int i = 0;
        if (words.length == 0 || words[0].isEmpty()) {
            return Optional.empty();
        }
        if (words[0].equals("unicast")) {
            i++;
        } else if (SKIPPED_TYPES.contains(words[0])) {
            return Optional.empty();
        }
        if (i >= words.length || words[i].equals("default")) {
            return Optional.empty();
        }
        if (Arrays.asList(words).contains("nexthop")) {
            return Optional.empty();
        }
        String destination = words[i];
        String device = null;
        long metric = 0;
        for (int w = i + 1; w + 1 < words.length; w++) {
            if (words[w].equals("dev") && device == null) {
                device = words[w + 1];
            } else if (words[w].equals("metric")) {
                try {
                    metric = Long.parseLong(words[w + 1]);
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        if (device == null) {
            return Optional.empty();
        }
        try {
            int slash = destination.indexOf('/');
            int network = Ipv4.parse(slash < 0 ? destination : destination.substring(0, slash));
            int prefix = slash < 0 ? 32 : Integer.parseInt(destination.substring(slash + 1));
            if (prefix < 0 || prefix > 32) {
                return Optional.empty();
            }
            return Optional.of(new Route(network, prefix, device, metric));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** @return the usable routes, in table order */
    public List<Route> routes() {
        return routes;
    }

    /**
     * Longest-prefix match among the usable routes; ties go to the lower metric, then to the
     * earlier line.
     *
     * @param address the address as int
     * @return the most specific route containing the address, or empty
     */
    public Optional<Route> bestRouteFor(int address) {
        return routes.stream()
                .filter(r -> r.contains(address))
                .min(Comparator.comparingInt(Route::prefix).reversed().thenComparingLong(Route::metric));
    }
}
