package org.jheartbeat.resources.names;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Pure builders of what the {@code Hostname} agent runs: {@code nsupdate} (BIND 9, RFC 2136) and its
 * script, {@code dig}, a dedicated {@code nmbd} (Samba) and its smb.conf, {@code hostname}. Tested on
 * text alone.
 *
 * @param nsupdate the {@code nsupdate} program (name on PATH or path)
 * @param dig      the {@code dig} program
 * @param nmbd     the {@code nmbd} program
 * @param hostname the {@code hostname} program
 */
public record NameCommands(String nsupdate, String dig, String nmbd, String hostname) {
    /** The programs from PATH (Debian: bind9-dnsutils, samba, hostname). */
    public static final NameCommands DEFAULT = new NameCommands("nsupdate", "dig", "nmbd", "hostname");
    /** nsupdate's own network timeout ({@code -t}), in s. */
    public static final int NSUPDATE_TIMEOUT_S = 10;

    public NameCommands {
        Objects.requireNonNull(nsupdate, "nsupdate");
        Objects.requireNonNull(dig, "dig");
        Objects.requireNonNull(nmbd, "nmbd");
        Objects.requireNonNull(hostname, "hostname");
    }

    /**
     * The update that makes the record hold exactly {@code address}: every A record of the name is
     * deleted and one added, in one UPDATE message (atomic at the server, RFC 2136 section 3.4).
     *
     * @param dns     the record
     * @param address the address it gets
     * @return nsupdate's input, one command a line, ending with {@code send}
     */
    public static String updateScript(HostnameSpec.Dns dns, String address) {
        StringBuilder s = new StringBuilder();
        s.append("server ").append(dns.server()).append('\n');
        dns.zone().ifPresent(z -> s.append("zone ").append(z).append('\n'));
        s.append("update delete ").append(dns.fqdn()).append(" A\n");
        s.append("update add ").append(dns.fqdn()).append(' ').append(dns.ttl()).append(" A ").append(address)
                .append('\n');
        s.append("send\n");
        return s.toString();
    }

    /**
     * @param keyFile the TSIG key file, if any
     * @param script  a file holding {@link #updateScript}
     * @return {@code nsupdate [-k KEYFILE] -t 10 SCRIPT}
     */
    public List<String> nsupdate(java.util.Optional<Path> keyFile, Path script) {
        List<String> argv = new ArrayList<>(List.of(nsupdate));
        keyFile.ifPresent(k -> {
            argv.add("-k");
            argv.add(k.toString());
        });
        argv.addAll(List.of("-t", Integer.toString(NSUPDATE_TIMEOUT_S), script.toString()));
        return List.copyOf(argv);
    }

    /**
     * @param dns the record
     * @return {@code dig +short +norecurse +time=2 +tries=2 @SERVER FQDN A}: the A records the server
     *         itself holds (no recursion, no cache of another server)
     */
    public List<String> dig(HostnameSpec.Dns dns) {
        return List.of(dig, "+short", "+norecurse", "+time=2", "+tries=2", "@" + dns.server(), dns.fqdn(), "A");
    }

    /**
     * The smb.conf of the dedicated nmbd that answers for {@code netbios} at {@code address} only: its
     * own pid, lock, state, cache and log directory {@code dir}, bound to that address alone, never a
     * browse master or WINS server (the machine's own nmbd, if any, keeps those roles).
     *
     * @param netbios the NetBIOS name
     * @param address the address it answers on (the interface's netmask is the kernel's)
     * @param dir     the instance's directory
     * @return the file's text
     */
    public static String nmbdConf(String netbios, String address, Path dir) {
        return "# written by jheartbeat's Hostname resource; removed when it stops\n"
                + "[global]\n"
                + "   netbios name = " + netbios + "\n"
                + "   interfaces = " + address + "\n"
                + "   bind interfaces only = yes\n"
                + "   disable netbios = no\n"
                + "   local master = no\n"
                + "   preferred master = no\n"
                + "   domain master = no\n"
                + "   wins support = no\n"
                + "   pid directory = " + dir + "\n"
                + "   lock directory = " + dir + "\n"
                + "   state directory = " + dir + "\n"
                + "   cache directory = " + dir + "\n"
                + "   private dir = " + dir + "\n"
                + "   ncalrpc dir = " + dir + "\n"
                + "   log file = " + dir.resolve("log.nmbd") + "\n"
                + "   max log size = 1000\n";
    }

    /** @param conf the instance's smb.conf @return {@code nmbd -D -s CONF} (daemonizes, writes its pid file) */
    public List<String> nmbd(Path conf) {
        return List.of(nmbd, "-D", "-s", conf.toString());
    }

    /** @return {@code hostname}: prints the UTS host name */
    public List<String> showHostname() {
        return List.of(hostname);
    }

    /** @param name the new host name @return {@code hostname NAME} (this UTS namespace only, not /etc/hostname) */
    public List<String> setHostname(String name) {
        return List.of(hostname, name);
    }
}
