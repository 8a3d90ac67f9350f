package org.jheartbeat.director.config;

import static org.jheartbeat.director.config.LdirectordProblems.abbreviate;
import static org.jheartbeat.director.config.LdirectordValues.DIGITS;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code real=}/{@code real6=} and {@code fallback=}/{@code fallback6=} lines of a virtual service:
 * address or IPv4 range, port, forwarding method, weight, per-real request/receive and l:N/u:N
 * thresholds; the fallback's address and method. Each problem is reported at the line; a bad inherited
 * fallback once, at its own line.
 */
final class RealServerLines {
    private final LdirectordProblems problems;
    private final LdirectordValues values;
    private final LdirectordAddresses addresses;

    RealServerLines(LdirectordProblems problems, LdirectordValues values, LdirectordAddresses addresses) {
        this.problems = problems;
        this.values = values;
        this.addresses = addresses;
    }

    /**
     * {@code real = HOST[->HOST2][:PORT] gate|masq|ipip [WEIGHT | -w WEIGHT] ["request", "receive"] [l:N] [u:N]}.
     */
    List<RealServer> real(boolean v6, DirectiveLine r, ServiceKey key) {
        String what = v6 ? "real6" : "real";
        List<String> tokens = tokens(r.value(), r.line(), what);
        if (tokens == null) {
            return List.of();
        }
        if (tokens.size() < 2) {
            problems.error(r.line(), what + " = " + abbreviate(r.value()) + ": expected 'address[:port] gate|masq|ipip"
                    + " [weight]'; the forwarding method is required");
            return List.of();
        }
        String target = tokens.get(0);
        Optional<Forward> fwd = Forward.fromConfig(tokens.get(1));
        if (fwd.isEmpty()) {
            problems.error(r.line(), what + ": forwarding method must be gate, masq or ipip, not '"
                    + abbreviate(tokens.get(1)) + "'");
            return List.of();
        }
        int weight = 1;
        Optional<String> request = Optional.empty();
        Optional<String> receive = Optional.empty();
        int lower = 0;
        int upper = 0;
        int quotedSeen = 0;
        for (int i = 2; i < tokens.size(); i++) {
            String t = tokens.get(i);
            if (t.startsWith("\"")) {
                String v = t.substring(1, t.length() - 1);
                if (quotedSeen == 0) {
                    request = Optional.of(v);
                } else if (quotedSeen == 1) {
                    receive = Optional.of(v);
                    if (!values.regex(v, r.line())) {
                        return List.of();
                    }
                } else {
                    problems.error(r.line(), what + ": at most two quoted strings (\"request\", \"receive\") may follow");
                    return List.of();
                }
                quotedSeen++;
            } else if (i == 2 && (DIGITS.matcher(t).matches() || t.equals("-w"))) {
                // ldirectord takes the first blank-preceded number after the method as the weight, so the
                // ipvsadm spelling "-w N" reads as N there too; "-w" alone, or glued to its number, is an error
                // there (facts/lvs.md 3.4)
                if (t.equals("-w")) {
                    if (i + 1 >= tokens.size() || !DIGITS.matcher(tokens.get(i + 1)).matches()) {
                        problems.error(r.line(), what + ": -w must be followed by the weight, a number 0-2147483647"
                                + " (e.g. 'gate -w 5', or just 'gate 5')");
                        return List.of();
                    }
                    t = tokens.get(++i);
                }
                if (t.length() > 10 || Long.parseLong(t) > Integer.MAX_VALUE) {
                    problems.error(r.line(), what + ": weight " + abbreviate(t) + " is out of range 0-2147483647");
                    return List.of();
                }
                weight = Integer.parseInt(t);
            } else if (i == 2 && t.matches("-w[0-9]+")) {
                problems.error(r.line(), what + ": write the weight as '-w " + abbreviate(t.substring(2)) + "' (a blank"
                        + " after -w, as ldirectord requires) or just '" + abbreviate(t.substring(2)) + "'");
                return List.of();
            } else if (t.matches("[lu]:[0-9]+")) {
                int n = t.length() > 7 ? 70000 : Integer.parseInt(t.substring(2));
                if (n > 65535) {
                    problems.error(r.line(), what + ": threshold " + t + " is out of range 0-65535");
                    return List.of();
                }
                if (t.charAt(0) == 'l') {
                    lower = n;
                } else {
                    upper = n;
                }
            } else {
                problems.error(r.line(), what + ": unexpected '" + abbreviate(t) + "'; after the forwarding method come"
                        + " an optional weight (N or -w N), an optional \"request\", \"receive\" pair and l:N / u:N thresholds");
                return List.of();
            }
        }
        if (quotedSeen == 1) {
            problems.error(r.line(), what + ": a per-real \"request\" needs its \"receive\": write \"request\", \"receive\"");
            return List.of();
        }
        // range A->B (IPv4 only)
        String first = target;
        String last = null;
        String portPart = null;
        int arrow = target.indexOf("->");
        if (arrow >= 0) {
            if (v6) {
                problems.error(r.line(), "real6: address ranges (A->B) are not supported for IPv6; list each real");
                return List.of();
            }
            first = target.substring(0, arrow);
            String rest = target.substring(arrow + 2);
            int colon = rest.indexOf(':');
            last = colon >= 0 ? rest.substring(0, colon) : rest;
            portPart = colon >= 0 ? rest.substring(colon) : "";
            first = first + portPart;
        }
        Optional<Endpoint> e = addresses.endpoint(first, r.line(), v6, false, what);
        if (e.isEmpty()) {
            return List.of();
        }
        int port = e.get().port();
        if (port == 0 && key.protocol() != Protocol.FWM) {
            port = key.port();
        }
        if (fwd.get() != Forward.MASQ && key.protocol() != Protocol.FWM && port != key.port()) {
            problems.warning(r.line(), what + ": port " + port + " differs from the virtual port " + key.port() + "; with "
                    + fwd.get().configName() + " the kernel always uses the virtual port (only masq maps ports)");
        }
        List<Endpoint> endpoints = new ArrayList<>();
        if (last == null) {
            endpoints.add(e.get().withPort(port));
        } else {
            Optional<InetAddress> end = addresses.address(last, r.line(), false, what);
            if (end.isEmpty()) {
                return List.of();
            }
            long a = LdirectordAddresses.toLong(e.get().address());
            long b = LdirectordAddresses.toLong(end.get());
            if (b < a) {
                problems.error(r.line(), what + ": range " + target + " ends before it starts; write LOW->HIGH");
                return List.of();
            }
            if (b - a >= 65536) {
                problems.error(r.line(), what + ": range " + target + " has more than 65536 addresses; split it");
                return List.of();
            }
            for (long x = a; x <= b; x++) {
                endpoints.add(new Endpoint(LdirectordAddresses.fromLong(x), port));
            }
        }
        List<RealServer> out = new ArrayList<>();
        for (Endpoint ep : endpoints) {
            out.add(new RealServer(ep, fwd.get(), weight, request, receive, lower, upper, r.line()));
        }
        return out;
    }

    Optional<FallbackServer> fallback(DirectiveLine r, ServiceKey key, boolean own) {
        String what = key.ipv6() ? "fallback6" : "fallback";
        List<String> tokens = tokens(r.value(), r.line(), what);
        if (tokens == null || tokens.isEmpty() || tokens.size() > 2) {
            if (own || problems.reportedGlobals().add(what)) {
                problems.error(r.line(), what + " = " + abbreviate(r.value()) + ": expected 'address[:port]"
                        + " [gate|masq|ipip]'");
            }
            return Optional.empty();
        }
        Forward f = Forward.GATE;
        if (tokens.size() == 2) {
            Optional<Forward> fw = Forward.fromConfig(tokens.get(1));
            if (fw.isEmpty()) {
                if (own || problems.reportedGlobals().add(what)) {
                    problems.error(r.line(), what + ": forwarding method must be gate, masq or ipip, not '"
                            + abbreviate(tokens.get(1)) + "'");
                }
                return Optional.empty();
            }
            f = fw.get();
        }
        int before = problems.diagnostics().size();
        Optional<Endpoint> e = addresses.endpoint(tokens.get(0), r.line(), key.ipv6(), false, what);
        if (e.isEmpty()) {
            if (!own && !problems.reportedGlobals().add(what)) {
                while (problems.diagnostics().size() > before) {
                    problems.diagnostics().remove(problems.diagnostics().size() - 1);
                }
            }
            return Optional.empty();
        }
        Endpoint ep = e.get().port() == 0 ? e.get().withPort(key.port()) : e.get();
        return Optional.of(new FallbackServer(ep, f));
    }

    /** Splits on blanks and commas, keeping "quoted strings" (with their quotes) whole. */
    private List<String> tokens(String text, int line, String what) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ' ' || c == ',') {
                i++;
            } else if (c == '"') {
                int end = text.indexOf('"', i + 1);
                if (end < 0) {
                    problems.error(line, what + ": a quoted string is not closed; add the closing \"");
                    return null;
                }
                out.add(text.substring(i, end + 1));
                i = end + 1;
            } else {
                int j = i;
                while (j < text.length() && text.charAt(j) != ' ' && text.charAt(j) != ',') {
                    j++;
                }
                out.add(text.substring(i, j));
                i = j;
            }
        }
        return out;
    }
}
