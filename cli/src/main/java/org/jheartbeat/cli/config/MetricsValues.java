package org.jheartbeat.cli.config;

import static org.jheartbeat.cli.config.JheartbeatYaml.line;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.cli.config.JheartbeatYaml.Problem;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/** The values of jheartbeat.yaml's {@code metrics:} section: listen addresses and file paths, each checked alone. */
final class MetricsValues {
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[0-9.]+):([0-9]{1,5})");

    private MetricsValues() {
    }

    /** {@code tls_cert_file:} and {@code tls_key_file:}: both or neither. */
    static Optional<MetricsTlsFiles> tls(NodeTuple cert, NodeTuple key) throws Problem {
        if (cert == null && key == null) {
            return Optional.empty();
        }
        if (cert == null || key == null) {
            NodeTuple given = cert != null ? cert : key;
            String name = ((ScalarNode) given.getKeyNode()).getValue();
            String missing = cert == null ? "tls_cert_file" : "tls_key_file";
            throw new Problem(line(given.getKeyNode()), "metrics: " + name + ": needs " + missing + ": too; give both"
                    + " the PEM certificate and its PKCS#8 key, or neither for plain http");
        }
        Path c = absolute(cert, "/etc/ha.d/metrics.crt (the PEM certificate, then its intermediates)");
        return Optional.of(new MetricsTlsFiles(c, absolute(key, "/etc/ha.d/metrics.key (a PKCS#8 PEM key as openssl"
                + " genpkey writes it, mode 0600)")));
    }

    /** A file key of {@code metrics:}: an absolute path; the file is read by the daemon at start. */
    static Path absolute(NodeTuple t, String example) throws Problem {
        Node n = t.getValueNode();
        String v = n instanceof ScalarNode s ? s.getValue() : "";
        if (v.isEmpty() || !v.startsWith("/")) {
            throw new Problem(line(n), "metrics: " + ((ScalarNode) t.getKeyNode()).getValue() + ": must be an"
                    + " absolute path, e.g. " + example);
        }
        return Path.of(v);
    }

    static InetSocketAddress address(Node value, String node) throws Problem {
        String what = "metrics: listen: " + node;
        String fix = "; write \"" + node + ": ADDRESS:PORT\" with one of " + node + "'s IP addresses, e.g. "
                + "192.168.1.1:9810 ([::1]:9810 for IPv6)";
        if (!(value instanceof ScalarNode s) || s.getValue().isBlank()) {
            throw new Problem(line(value), what + ": no address" + fix);
        }
        String text = s.getValue().trim();
        Matcher m = HOST_PORT.matcher(text);
        if (!m.matches()) {
            throw new Problem(line(value), what + ": [" + text + "] is not ADDRESS:PORT (an IP address, not a"
                    + " host name: nothing is looked up at start)" + fix);
        }
        int port = Integer.parseInt(m.group(2));
        if (port < 1 || port > 65535) {
            throw new Problem(line(value), what + ": port " + port + " is out of range; use 1..65535" + fix);
        }
        String host = m.group(1).startsWith("[") ? m.group(1).substring(1, m.group(1).length() - 1) : m.group(1);
        try {
            if (!host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}") && !host.contains(":")) {
                throw new UnknownHostException(host);
            }
            return new InetSocketAddress(InetAddress.getByName(host), port); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new Problem(line(value), what + ": [" + host + "] is not an IP address" + fix);
        }
    }
}
