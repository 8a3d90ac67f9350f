package org.jheartbeat.cli.setup;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.NodeName;

/**
 * The answers of {@code hb setup} that options did not give, asked on a terminal; without one, each missing
 * answer is a usage error (exit 64) naming its option. Detected interfaces and serial ports are offered (a
 * crossover candidate as the default in brackets, taken only by pressing Enter), never chosen silently.
 */
public final class SetupPrompts {
    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");

    /** Where the questions go: a console, or a script in tests. */
    public interface Terminal {
        /** Prints {@code prompt} and reads one line; null at end of input. */
        String readLine(String prompt);

        /** Prints one line. */
        void println(String line);
    }

    /**
     * The answers given as options (null or empty: not given).
     *
     * @param peerName {@code --peer-name}
     * @param ucast    {@code --ucast IF:PEER_ADDRESS}, each
     * @param serial   {@code --serial DEVICE}, each
     * @param group    {@code --group LINE}
     */
    public record Given(String peerName, List<String> ucast, List<String> serial, String group) {
        public Given {
            ucast = List.copyOf(ucast);
            serial = List.copyOf(serial);
        }

        /** The options still missing, as the user would add them. */
        public List<String> missing() {
            List<String> m = new ArrayList<>();
            if (peerName == null) {
                m.add("--peer-name NAME");
            }
            if (ucast.isEmpty() && serial.isEmpty()) {
                m.add("--ucast IF:PEER_ADDRESS (or --serial DEVICE)");
            }
            if (group == null) {
                m.add("--group \"NODE ADDRESS/BITS/IF RESOURCE...\"");
            }
            return m;
        }
    }

    private SetupPrompts() {
    }

    /**
     * Completes {@code given}: asks on {@code terminal} what is missing, or, with no terminal, refuses.
     *
     * @param node this node's name, used in the example group line
     * @throws UserException exit 64: no terminal and an answer missing (every missing option named), or the
     *                       input ended before an answer
     */
    public static Given complete(Given given, HostInventory inv, String node, Optional<Terminal> terminal)
            throws UserException {
        if (given.missing().isEmpty()) {
            return given;
        }
        if (terminal.isEmpty()) {
            throw new UserException(ExitCodes.USAGE, "setup: no terminal to ask on; give " + String.join(", ",
                    given.missing()) + " (see hb setup --help)");
        }
        Terminal t = terminal.get();
        String peer = given.peerName();
        while (peer == null) {
            String a = ask(t, "The peer node's name (its uname -n): ", "");
            try {
                peer = NodeName.of(a).toString();
            } catch (IllegalArgumentException e) {
                t.println("  " + e.getMessage() + "; type one word, e.g. node2");
                continue;
            }
            if (peer.equals(node)) {
                // caught here, not after ssh has been tried with the other answers
                t.println("  " + peer + " is this node's own name; type the other node's");
                peer = null;
            }
        }
        List<String> ucast = new ArrayList<>(given.ucast());
        List<String> serial = new ArrayList<>(given.serial());
        if (ucast.isEmpty() && serial.isEmpty()) {
            askLinks(t, inv, ucast, serial);
        }
        String group = given.group();
        while (group == null) {
            String ex = inv.interfaces().stream().filter(HostInventory.Iface::defaultRoute).map(HostInventory.Iface::name)
                    .findFirst().orElse("eth0");
            String a = ask(t, "The first resource group: the node that runs it, its address and services, e.g. "
                    + node + " 192.168.1.100/24/" + ex + " apache2\n  group: ", "");
            if (!a.isBlank()) {
                group = a.strip();
            }
        }
        return new Given(peer, ucast, serial, group);
    }

    private static void askLinks(Terminal t, HostInventory inv, List<String> ucast, List<String> serial)
            throws UserException {
        if (inv.interfaces().isEmpty()) {
            t.println("No interface with an IPv4 address is up here.");
        } else {
            t.println("Interfaces with an IPv4 address:");
            for (HostInventory.Iface i : inv.interfaces()) {
                t.println(String.format("  %-10s %-15s %s", i.name(), i.address(), i.defaultRoute()
                        ? "default route (the LAN)" : "no default route (a crossover cable?)"));
            }
        }
        String suggest = String.join(" ", inv.crossoverCandidates());
        List<String> names = null;
        while (names == null) {
            String ifs = ask(t, "Heartbeat links over UDP: interfaces, blank-separated (two links are safer than one;"
                    + " '-' for none)" + (suggest.isEmpty() ? "" : " [" + suggest + "]") + ": ", suggest);
            names = ifs.strip().equals("-") ? List.of()
                    : java.util.Arrays.stream(ifs.trim().split("\\s+")).filter(n -> !n.isEmpty()).toList();
            List<String> unknown = names.stream().filter(n -> inv.iface(n).isEmpty()).toList();
            if (!unknown.isEmpty()) {
                // asked again at once: answers() would refuse it only after ssh has been tried
                t.println("  not up with an IPv4 address here: " + String.join(" ", unknown) + "; type names from the"
                        + " list above");
                names = null;
            }
        }
        for (String name : names) {
            String peerAddr = null;
            while (peerAddr == null) {
                String a = ask(t, "  the peer's IPv4 address on " + name + ": ", "").strip();
                if (IPV4.matcher(a).matches() && a.equals(inv.iface(name).orElseThrow().address())) {
                    t.println("  " + a + " is this node's own address on " + name + "; type the peer's");
                } else if (IPV4.matcher(a).matches()) {
                    peerAddr = a;
                } else {
                    t.println("  not an IPv4 address: '" + a + "'");
                }
            }
            ucast.add(name + ":" + peerAddr);
        }
        if (!inv.serials().isEmpty()) {
            t.println("Serial ports: " + String.join(" ", inv.serials()));
            String s = ask(t, "Serial links (a null-modem cable to the peer): devices, blank-separated, or blank for"
                    + " none: ", "");
            for (String dev : s.trim().split("\\s+")) {
                if (!dev.isEmpty()) {
                    serial.add(dev);
                }
            }
        }
        if (ucast.isEmpty() && serial.isEmpty()) {
            throw new UserException(ExitCodes.USAGE, "setup: no link given; the nodes need at least one (--ucast"
                    + " IF:PEER_ADDRESS or --serial DEVICE)");
        }
    }

    /**
     * Exit 64 if {@code value} holds a line break or another control character (a tab excepted, a blank in
     * haresources): each answer becomes one line of a file, and {@code "node1 x\nnode2 y"} would write two.
     */
    static void oneLine(String option, String value) throws UserException {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != '\t' && (Character.isISOControl(c) || c == '\u2028' || c == '\u2029')) {
                boolean lineBreak = c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029';
                String shown = c == '\n' ? "\\n" : c == '\r' ? "\\r" : String.format("\\u%04x", (int) c);
                throw new UserException(ExitCodes.USAGE, "setup: " + option + " holds " + (lineBreak ? "a line break"
                        : "a control character") + " (" + shown + " at character " + (i + 1) + ")" + (lineBreak
                        ? ": the file would get two lines" : "") + "; give one line of printable characters");
            }
        }
    }

    private static String ask(Terminal t, String prompt, String dflt) throws UserException {
        String a = t.readLine(prompt);
        if (a == null) {
            throw new UserException(ExitCodes.USAGE, "setup: input ended before every answer was given; nothing"
                    + " written");
        }
        return a.isBlank() ? dflt : a;
    }

    /**
     * Turns complete {@code given} into answers: each {@code --ucast IF:PEER_ADDRESS} gets this node's address
     * on IF from {@code inv}.
     *
     * @throws UserException exit 64: an answer with a line break or control character, a malformed link, an
     *                       interface with no IPv4 address here, a bad name, an empty group, a log file that is
     *                       not one absolute path
     */
    public static SetupAnswers answers(Given given, HostInventory inv, String node, int baud, String logfile,
            String authKey) throws UserException {
        oneLine("--group", given.group());
        oneLine("--logfile", logfile);
        for (String u : given.ucast()) {
            oneLine("--ucast", u);
        }
        for (String s : given.serial()) {
            oneLine("--serial", s);
        }
        String peer;
        try {
            peer = NodeName.of(given.peerName()).toString();
        } catch (IllegalArgumentException e) {
            throw new UserException(ExitCodes.USAGE, "setup: --peer-name: " + e.getMessage());
        }
        if (peer.equals(node)) {
            throw new UserException(ExitCodes.USAGE, "setup: --peer-name " + peer + " is this node's own name; give"
                    + " the other node's (its uname -n), or --node-name for this one");
        }
        List<SetupAnswers.UcastLink> links = new ArrayList<>();
        for (String u : given.ucast()) {
            int colon = u.indexOf(':');
            String iface = colon < 0 ? u : u.substring(0, colon);
            String addr = colon < 0 ? "" : u.substring(colon + 1);
            if (iface.isEmpty() || !IPV4.matcher(addr).matches()) {
                throw new UserException(ExitCodes.USAGE, "setup: --ucast '" + u + "': expected IF:PEER_ADDRESS, e.g."
                        + " eth1:192.168.1.2");
            }
            HostInventory.Iface here = inv.iface(iface).orElseThrow(() -> new UserException(ExitCodes.USAGE,
                    "setup: --ucast " + u + ": interface " + iface + " is not up with an IPv4 address on this machine"
                    + (inv.interfaces().isEmpty() ? "" : " (these are: " + String.join(" ", inv.interfaces()
                    .stream().map(HostInventory.Iface::name).toList()) + ")")));
            if (here.address().equals(addr)) {
                throw new UserException(ExitCodes.USAGE, "setup: --ucast " + u + ": " + addr + " is this machine's"
                        + " own address on " + iface + "; give the peer's");
            }
            links.add(new SetupAnswers.UcastLink(iface, here.address(), addr));
        }
        for (String s : given.serial()) {
            if (!s.startsWith("/dev/")) {
                throw new UserException(ExitCodes.USAGE, "setup: --serial " + s + ": give the device path, e.g."
                        + " /dev/ttyS0");
            }
        }
        if (given.group().isBlank()) {
            throw new UserException(ExitCodes.USAGE, "setup: --group is empty; give the first resource group, e.g."
                    + " \"" + node + " 192.168.1.100/24/eth0 apache2\"");
        }
        if (!logfile.isEmpty() && (!logfile.startsWith("/") || logfile.matches(".*\\s.*"))) {
            // ha.cf's logfile takes one word: the daemon would log to the last word of it, relative to its working
            // directory (the lab: a file 'log' in the directory hb setup was run from)
            throw new UserException(ExitCodes.USAGE, "setup: --logfile '" + logfile + "': give an absolute path"
                    + " without blanks, e.g. " + SetupAnswers.DEFAULT_LOGFILE + ", or 'none' for syslog only");
        }
        return new SetupAnswers(node, peer, links, given.serial(), baud, given.group(), logfile, authKey);
    }
}
