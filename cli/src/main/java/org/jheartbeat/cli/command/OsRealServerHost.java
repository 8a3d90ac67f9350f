package org.jheartbeat.cli.command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * The real host of {@code hb lvs realserver}: the ARP sysctls under {@code /proc/sys/net/ipv4/conf}, and
 * the {@code ip} and {@code iptables} programs run with a 30 s limit.
 */
final class OsRealServerHost {
    /** The real host: /proc/sys and the ip/iptables programs. */
    static final org.jheartbeat.director.realserver.RealServerSetup.Host INSTANCE =
            new org.jheartbeat.director.realserver.RealServerSetup.Host() {
                private final Path conf = Path.of("/proc/sys/net/ipv4/conf");

                @Override
                public List<String> interfaces() throws IOException {
                    try (java.util.stream.Stream<Path> s = Files.list(conf)) {
                        return s.map(p -> p.getFileName().toString())
                                .filter(n -> !n.equals("all") && !n.equals("default")).sorted().toList();
                    }
                }

                @Override
                public int sysctl(String iface, String name) throws IOException {
                    return Integer.parseInt(Files.readString(conf.resolve(iface).resolve(name)).strip());
                }

                @Override
                public void setSysctl(String iface, String name, int value) throws IOException {
                    Files.writeString(conf.resolve(iface).resolve(name), value + "\n");
                }

                @Override
                public boolean loopbackHas(String vip) throws IOException {
                    return exec(List.of("ip", "-4", "-o", "addr", "show", "dev", "lo")).out()
                            .contains(" " + vip + "/32 ");
                }

                @Override
                public void run(List<String> argv) throws IOException {
                    Exec r = exec(argv);
                    if (r.code() != 0) {
                        throw new IOException(String.join(" ", argv) + " failed (exit " + r.code() + "): "
                                + r.out().strip());
                    }
                }

                @Override
                public boolean succeeds(List<String> argv) throws IOException {
                    return exec(argv).code() == 0;
                }

                private Exec exec(List<String> argv) throws IOException {
                    ProcessResult r = new OsProcessRunner().run(new ProcessSpec(argv, java.util.Map.of(),
                            java.time.Duration.ofSeconds(30)));
                    if (r.timedOut()) {
                        throw new IOException(argv.get(0) + " did not finish within 30 s");
                    }
                    return new Exec(r.exitCode(), r.stdout() + r.stderr());
                }
            };

    private record Exec(int code, String out) {
    }

    private OsRealServerHost() {
    }
}
