package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.export.ExportSources;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.export.CibXml;
import org.jheartbeat.export.CommandScripts;
import org.jheartbeat.export.ExportException;
import org.jheartbeat.export.ExportInput;
import org.jheartbeat.export.ExportResult;
import org.jheartbeat.export.PacemakerCheck;
import org.jheartbeat.export.PacemakerExporter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hb export ...}: the configuration in another cluster manager's terms. */
@Command(name = "export", description = "Export the cluster configuration for another cluster manager.",
        mixinStandardHelpOptions = true, subcommands = {ExportCommand.Pacemaker.class})
public final class ExportCommand extends CommandGroup {
    /** What {@code --format} writes besides corosync.conf, cib.xml and the report. */
    public enum Format { cib, pcs, crmsh }

    /**
     * {@code hb export pacemaker}: writes corosync.conf (Corosync 3, knet), the CIB (or a pcs / crm
     * script besides it), and export-report.txt saying what every source line became, after checking
     * the CIB with crm_verify and crm_simulate (docs/design/export.md). Nothing is written when the
     * configuration does not load (exit 2) or a check fails (exit 1).
     */
    @Command(name = "pacemaker", mixinStandardHelpOptions = true,
            description = {"Convert ha.cf, haresources, authkeys (and sync.yaml, jheartbeat.yaml) into a Corosync 3"
                    + " corosync.conf and a Pacemaker 2 CIB, checked with crm_verify and crm_simulate before anything"
                    + " is written.",
                "Writes corosync.conf, cib.xml, export-report.txt (every source line and what it became),"
                    + " pcs.sh or crm.txt with --format, and resource.d/jheartbeat/hb-script when a Heartbeat script"
                    + " needs the wrapper."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:exported and checked (warnings are in the report)",
                "1:a check failed, a checking tool is missing (see --no-verify), or a file could not be written",
                "2:the configuration does not load (file:line messages as hb config check)",
                "64:usage error, or a node address corosync.conf needs is missing (see --node-address)"})
    public static final class Pacemaker implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        ConfigDirOption configDir;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "cib",
                description = "cib (cib.xml only), pcs (also pcs.sh) or crmsh (also crm.txt); default: ${DEFAULT-VALUE}.")
        Format format;

        @Option(names = "--out", paramLabel = "DIR", defaultValue = "pacemaker-export",
                description = "Directory to write to, created if missing (default: ${DEFAULT-VALUE}).")
        Path out;

        @Option(names = "--no-verify", description = "Write without running crm_verify / crm_simulate (e.g. on a"
                + " machine without pacemaker-cli-utils).")
        boolean noVerify;

        @Option(names = "--node-address", paramLabel = "NODE=IP[,IP...]",
                description = "A node's address on each UDP link, in link order (the interfaces of the ucast/bcast/mcast"
                        + " lines, first seen first); needed where ha.cf does not give it (bcast, mcast, or exporting"
                        + " on another machine). Repeat per node.")
        List<String> nodeAddress = new ArrayList<>();

        @Option(names = "--unmanaged", description = "Write every group is-managed=false, for a cluster started beside"
                + " the running jheartbeat pair: Pacemaker probes the groups but starts and stops none until you manage"
                + " each one after jheartbeat gave it up (docs/migrate-to-pacemaker.md). The checks run on the managed"
                + " CIB.")
        boolean unmanaged;

        @Mixin
        NodeNameOption nodeName;

        @Option(names = "--cluster-name", paramLabel = "NAME", defaultValue = "jheartbeat",
                description = "corosync cluster_name (default: ${DEFAULT-VALUE}).")
        String clusterName;

        @Override
        public Integer call() throws Exception {
            PrintWriter o = spec.commandLine().getOut();
            PrintWriter e = spec.commandLine().getErr();
            Path dir = configDir.path();
            ConfigLoadResult loaded = ConfigLoader.load(dir, Optional.empty());
            if (loaded.config().isEmpty() || loaded.hasErrors()) {
                loaded.diagnostics().forEach(d -> (d.isError() ? e : o).println(d.format()));
                e.println("hb: " + dir + " does not load (" + loaded.errors().size() + " error(s)); nothing exported,"
                        + " nothing written. Fix it (hb config check) and export again.");
                return ExitCodes.CONFIG;
            }
            ClusterConfig config = loaded.config().get();
            if (Files.exists(out) && !Files.isDirectory(out)) {
                throw new UserException(ExitCodes.USAGE, "--out " + out + " exists and is not a directory; give a"
                        + " directory (created if missing)");
            }
            Map<String, List<String>> addresses = parseAddresses();
            if (!clusterName.matches("[A-Za-z0-9_.-]{1,32}")) {
                throw new UserException(ExitCodes.USAGE, "--cluster-name: 1 to 32 letters, digits, '_', '.' or '-'");
            }
            ExportInput input = ExportSources.read(config, addresses, localNode(config),
                    ExportSources.localAddresses(), clusterName);
            ExportResult r;
            try {
                r = PacemakerExporter.export(input);
            } catch (ExportException ex) {
                throw new UserException(ExitCodes.USAGE, ex.getMessage());
            }
            // the checks place every group, so they run on the managed CIB; the files carry the choice
            org.jheartbeat.export.Cib written = unmanaged ? r.cib().withGroupsUnmanaged() : r.cib();
            Map<String, String> files = new LinkedHashMap<>();
            files.put("corosync.conf", r.corosyncConf());
            files.put("cib.xml", CibXml.render(written));
            if (format == Format.pcs) {
                files.put("pcs.sh", CommandScripts.pcs(written));
            } else if (format == Format.crmsh) {
                try {
                    files.put("crm.txt", CommandScripts.crmsh(written));
                } catch (ExportException ex) {
                    throw new UserException(ExitCodes.CONFIG, ex.getMessage() + "; nothing written");
                }
            }
            files.put("export-report.txt", r.reportText());
            files.putAll(r.extraFiles());
            if (!noVerify) {
                Path work = Files.createTempDirectory("hb-export-");
                try {
                    PacemakerCheck.Outcome c = new PacemakerCheck(new OsProcessRunner(), work).check(r.cib(),
                            r.corosyncConf());
                    c.log().forEach(l -> o.println("check: " + l));
                    if (!c.ok()) {
                        c.problems().forEach(p -> e.println("hb: " + p));
                        e.println("hb: the export did not pass its checks; nothing written");
                        return ExitCodes.FAILURE;
                    }
                } finally {
                    deleteTree(work);
                }
            }
            Path current = out;
            try {
                Files.createDirectories(out);
                for (Map.Entry<String, String> f : files.entrySet()) {
                    current = out.resolve(f.getKey());
                    write(current, f.getValue(), mode(f.getKey()));
                }
            } catch (IOException ex) {
                throw new UserException(ExitCodes.FAILURE, "cannot write " + current + " (" + ex.getClass().getSimpleName()
                        + (ex.getMessage() == null ? "" : ": " + ex.getMessage()) + "); give --out a writable directory");
            }
            o.println("Exported " + config.resourceGroups().size() + " resource group(s) of " + dir + " to " + out + ": "
                    + String.join(", ", files.keySet()) + (noVerify ? " (NOT checked: --no-verify)" : ""));
            if (!r.warnings().isEmpty()) {
                o.println(r.warnings().size() + " warning(s), also in export-report.txt:");
                r.warnings().forEach(w -> o.println("  * " + w));
            }
            if (unmanaged) {
                o.println("Every group is written is-managed=false: Pacemaker starts none of them. Once jheartbeat has"
                        + " given a group up: crm_resource --resource GROUP --refresh, crm_mon -1 --inactive until it"
                        + " shows Stopped, then crm_resource --resource GROUP --meta --delete-parameter is-managed"
                        + " (docs/migrate-to-pacemaker.md).");
            }
            o.println("Next: docs/reference.md \"Outgrowing two nodes\" (corosync-keygen, copy corosync.conf, start, load cib.xml).");
            return ExitCodes.OK;
        }

        private Map<String, List<String>> parseAddresses() throws UserException {
            Map<String, List<String>> m = new LinkedHashMap<>();
            for (String a : nodeAddress) {
                int eq = a.indexOf('=');
                if (eq <= 0 || eq == a.length() - 1) {
                    throw new UserException(ExitCodes.USAGE, "--node-address [" + a + "]: write NODE=IP[,IP...],"
                            + " e.g. node1=198.18.1.1,198.18.0.1");
                }
                List<String> ips = Arrays.asList(a.substring(eq + 1).split(","));
                for (String ip : ips) {
                    if (!numericIp(ip)) {
                        throw new UserException(ExitCodes.USAGE, "--node-address [" + a + "]: [" + ip
                                + "] is not an IP address");
                    }
                }
                m.put(a.substring(0, eq).toLowerCase(java.util.Locale.ROOT), ips);
            }
            return m;
        }

        /**
         * Whether {@code s} is a numeric IPv4 address (four decimal parts 0..255) or an IPv6 literal; the
         * old test, hex digits, dots and colons, let a host name such as {@code abc} into corosync.conf.
         */
        static boolean numericIp(String s) {
            if (s.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")) {
                return Arrays.stream(s.split("\\.")).allMatch(p -> Integer.parseInt(p) <= 255);
            }
            if (s.contains(":") && s.matches("[0-9A-Fa-f:.]+")) {
                try {
                    java.net.InetAddress.getByName(s); // a literal with ':' is parsed, never looked up
                    return true;
                } catch (java.net.UnknownHostException e) {
                    return false;
                }
            }
            return false;
        }

        private Optional<String> localNode(ClusterConfig config) {
            if (nodeName.value().isPresent()) {
                return nodeName.value().map(n -> n.toLowerCase(java.util.Locale.ROOT));
            }
            String me = ConfigCommand.thisNode().value();
            return config.nodes().stream().anyMatch(n -> n.value().equals(me)) ? Optional.of(me) : Optional.empty();
        }

        /**
         * The mode a written file gets: the CIB and its scripts hold every resource's and STONITH device's
         * parameters (passwords among them), so only their owner may read them (as pcs keeps
         * /var/lib/pacemaker/cib/cib.xml 600); the wrapper script and pcs.sh are executable.
         */
        static String mode(String name) {
            boolean secret = name.equals("cib.xml") || name.equals("pcs.sh") || name.equals("crm.txt");
            boolean executable = name.startsWith("resource.d/") || name.endsWith(".sh");
            return secret ? (executable ? "rwx------" : "rw-------") : (executable ? "rwxr-xr-x" : "rw-r--r--");
        }

        /**
         * Writes through a temporary file created with its final mode (O_EXCL, so there is no moment in
         * which another user could open it, and a planted file or link there is an error, not followed),
         * then renames it over {@code target}.
         */
        private static void write(Path target, String text, String mode) throws IOException {
            Files.createDirectories(target.getParent());
            Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            java.util.Set<java.nio.file.attribute.PosixFilePermission> perms = PosixFilePermissions.fromString(mode);
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(perms));
            Files.setPosixFilePermissions(tmp, perms); // the umask may have removed bits of a wider final mode
            Files.writeString(tmp, text, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.WRITE,
                    java.nio.file.StandardOpenOption.TRUNCATE_EXISTING, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }

        private static void deleteTree(Path dir) throws IOException {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
