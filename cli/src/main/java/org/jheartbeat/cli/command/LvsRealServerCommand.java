package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb lvs realserver VIP [--undo] [--dnat]}: sets this host up as an LVS-DR real server through
 * {@link org.jheartbeat.director.realserver.RealServerSetup} on the real host ({@link OsRealServerHost}),
 * and owns the state file that keeps the ARP sysctl values it replaced, for {@code --undo}.
 */
@Command(name = "realserver", mixinStandardHelpOptions = true,
        description = "Make this host an LVS-DR real server for VIP: VIP/32 on lo with arp_ignore=1 and"
                + " arp_announce=2 (the kernel uses the larger of conf/all and conf/IFACE), or with --dnat an"
                + " iptables nat REDIRECT rule for VIP instead. Idempotent; prints what it changed.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:in place (or undone)", "1:a change failed", "64:usage error"})
public final class LvsRealServerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "VIP", description = "The virtual IPv4 address.")
    String vip;

    @Option(names = "--undo", description = "Remove the VIP from lo (or the rule) and restore the ARP"
            + " sysctls this command changed.")
    boolean undo;

    @Option(names = "--dnat", description = "An iptables nat PREROUTING -d VIP/32 -j REDIRECT rule instead of"
            + " the VIP on lo.")
    boolean dnat;

    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = "/var/lib/jheartbeat",
            description = "Where the replaced sysctl values are kept for --undo (default: ${DEFAULT-VALUE}).")
    Path stateDir;

    @Override
    public Integer call() throws Exception {
        java.net.InetAddress a;
        try {
            a = LvsCommand.numeric(vip);
        } catch (IllegalArgumentException e) {
            a = null;
        }
        if (!(a instanceof java.net.Inet4Address)) {
            throw new UserException(ExitCodes.USAGE, "VIP '" + vip + "' is not a numeric IPv4 address;"
                    + " give the virtual address of ldirectord.cf's virtual= line");
        }
        PrintWriter out = spec.commandLine().getOut();
        Path state = stateFile(vip, stateDir, undo);
        java.util.Map<String, Integer> recorded = readState(vip, state);
        List<String> changes;
        try {
            if (undo) {
                changes = org.jheartbeat.director.realserver.RealServerSetup.undo(OsRealServerHost.INSTANCE, vip, dnat, recorded);
                Files.deleteIfExists(state);
            } else {
                org.jheartbeat.director.realserver.RealServerSetup.Outcome o =
                        org.jheartbeat.director.realserver.RealServerSetup.setUp(OsRealServerHost.INSTANCE, vip, dnat);
                changes = o.changes();
                o.replaced().forEach(recorded::putIfAbsent);
                if (!recorded.isEmpty()) {
                    Files.createDirectories(stateDir);
                    StringBuilder sb = new StringBuilder();
                    recorded.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
                    Files.writeString(state, sb.toString());
                }
                o.notes().forEach(n -> out.println("  " + n));
            }
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "realserver " + vip + ": " + e.getMessage());
        }
        if (changes.isEmpty()) {
            out.println(undo ? "nothing to undo for " + vip : "already in place for " + vip + ": nothing changed");
        }
        changes.forEach(c -> out.println("changed: " + c));
        out.flush();
        return ExitCodes.OK;
    }

    /**
     * The state file of {@code hb lvs realserver VIP}, checked before anything is changed: {@code stateDir}
     * must be given and, unless undoing, able to keep the values the command replaces (created if missing).
     *
     * @return {@code stateDir/lvs-realserver-VIP.state}
     * @throws UserException exit 64 for an empty {@code --state-dir}; exit 1 naming the directory and why,
     *                       "Nothing changed"
     */
    public static Path stateFile(String vip, Path stateDir, boolean undo) throws UserException {
        if (stateDir.toString().isEmpty()) {
            throw new UserException(ExitCodes.USAGE, "--state-dir is empty; give the directory that keeps the"
                    + " values for --undo (default /var/lib/jheartbeat)");
        }
        if (!undo) {
            checkStateDir(vip, stateDir);
        }
        return stateDir.resolve("lvs-realserver-" + vip + ".state");
    }

    private static void checkStateDir(String vip, Path stateDir) throws UserException {
        String why = null;
        try {
            Files.createDirectories(stateDir);
            if (!Files.isWritable(stateDir)) {
                why = "not writable";
            }
        } catch (java.nio.file.FileAlreadyExistsException e) {
            why = "it exists and is not a directory";
        } catch (IOException e) {
            why = e.getMessage();
        }
        if (why != null) {
            throw new UserException(ExitCodes.FAILURE, "realserver " + vip + ": cannot keep the values it"
                    + " replaces (for --undo) in --state-dir " + stateDir + ": " + why + "; give a writable"
                    + " directory. Nothing changed");
        }
    }

    /**
     * The values a previous {@code hb lvs realserver} replaced ({@code SYSCTL=NUMBER} lines); empty when
     * the file does not exist.
     *
     * @throws UserException exit 1, {@code FILE:LINE: ...}, for a line that is not {@code SYSCTL=NUMBER}
     */
    public static java.util.Map<String, Integer> readState(String vip, Path state) throws UserException {
        java.util.Map<String, Integer> recorded = new java.util.LinkedHashMap<>();
        if (!Files.exists(state)) {
            return recorded;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(state, java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "realserver " + vip + ": cannot read " + state + " ("
                    + e.getMessage() + "); nothing changed");
        }
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int eq = l.indexOf('=');
            try {
                if (eq > 0) {
                    recorded.put(l.substring(0, eq), Integer.parseInt(l.substring(eq + 1).strip()));
                    continue;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            if (!l.isBlank()) {
                throw new UserException(ExitCodes.FAILURE, state + ":" + (i + 1) + ": not SYSCTL=NUMBER as this"
                        + " command writes it; correct or delete the file (then set the ARP sysctls by hand)."
                        + " Nothing changed");
            }
        }
        return recorded;
    }
}
