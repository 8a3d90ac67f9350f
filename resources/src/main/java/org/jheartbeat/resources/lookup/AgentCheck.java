package org.jheartbeat.resources.lookup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.config.Suggestions;
import org.jheartbeat.resources.AgentNotFoundException;
import org.jheartbeat.resources.ResourceAgentException;
import org.jheartbeat.resources.drbd.DrbdDiskAgent;
import org.jheartbeat.resources.fs.BuiltinFilesystem;
import org.jheartbeat.resources.mail.MailToAgent;
import org.jheartbeat.resources.mail.MailToSpec;
import org.jheartbeat.resources.ocf.OcfDirectory;
import org.jheartbeat.resources.ocf.OcfMetadata;

/**
 * Checks one haresources resource against this machine, by class, before any takeover needs it
 * ({@code hb config check}, {@code hb resources check}, daemon start):
 * <ul>
 *   <li>Heartbeat names: the script exists in {@code resource.d} or the init directory
 *       ({@link Kind#MISSING_SCRIPT}, which the daemon demotes to its group's failure);
 *       IPaddr/IPaddr2/drbddisk are built in (drbddisk takes at most one argument), and so are Hostname,
 *       Filesystem and MailTo where {@code resource.d} has no script of that name (MailTo: its addresses are
 *       checked, and a WARNING says so when no sendmail program is installed);</li>
 *   <li>{@code lsb:}: the init script exists and is executable;</li>
 *   <li>{@code ocf:}: the agent exists (else a did-you-mean among its provider's agents), its
 *       meta-data reads, every parameter written is declared (did-you-mean), every required one
 *       is written;</li>
 *   <li>{@code systemd:}: a WARNING if no unit file of that name is in the usual unit directories
 *       (units can be generated; systemctl decides at start).</li>
 * </ul>
 */
public final class AgentCheck {
    /** Directories searched for unit files, as systemd's system unit search path. */
    public static final List<Path> UNIT_DIRS = List.of(Path.of("/etc/systemd/system"), Path.of("/run/systemd/system"),
            Path.of("/lib/systemd/system"), Path.of("/usr/lib/systemd/system"));

    private final ScriptLocator locator;
    private final OcfDirectory ocf;
    private final List<Path> unitDirs;

    /** What kind of problem a {@link Problem} is. */
    public enum Kind {
        /** a Heartbeat-class script is missing: fails only its group at takeover, so the other groups still run */
        MISSING_SCRIPT,
        /** any other error: the daemon refuses to start */
        ERROR,
        /** worth saying, not fatal */
        WARNING
    }

    /**
     * @param kind    how serious
     * @param message one line: what is wrong; what to do
     */
    public record Problem(Kind kind, String message) { }

    /**
     * @param locator  Heartbeat script lookup (its init directory serves {@code lsb:})
     * @param ocf      OCF agents and meta-data
     * @param unitDirs where unit files are looked for
     */
    public AgentCheck(ScriptLocator locator, OcfDirectory ocf, List<Path> unitDirs) {
        this.locator = Objects.requireNonNull(locator, "locator");
        this.ocf = Objects.requireNonNull(ocf, "ocf");
        this.unitDirs = List.copyOf(unitDirs);
    }

    /**
     * @param spec a resource the parser accepted
     * @return its problems, empty when it can be managed here
     */
    public List<Problem> check(ResourceSpec spec) {
        List<Problem> out = new ArrayList<>();
        AgentRef ref;
        try {
            ref = spec.agentRef();
        } catch (IllegalArgumentException e) {
            out.add(new Problem(Kind.ERROR, e.getMessage()));
            return out;
        }
        if (ref instanceof AgentRef.Heartbeat h) {
            if (h.name().equals(DrbdDiskAgent.NAME) && h.args().size() > 1) {
                out.add(new Problem(Kind.ERROR, "drbddisk takes one DRBD resource name, [" + spec.token() + "] gives "
                        + h.args().size() + "; write drbddisk::RESOURCE (or drbddisk alone for all)"));
            }
            if (StandardResourceAgents.IP_AGENTS.contains(h.name()) || h.name().equals(DrbdDiskAgent.NAME)) {
                return out;
            }
            if (h.name().equals(org.jheartbeat.resources.names.HostnameSpec.AGENT) && !locator.exists(h.name())) {
                try {
                    org.jheartbeat.resources.names.HostnameSpec.parse(h.args(), spec.token());
                } catch (ResourceAgentException e) {
                    out.add(new Problem(Kind.ERROR, e.getMessage()));
                }
                return out;
            }
            if (h.name().equals(MailToSpec.NAME) && !locator.exists(h.name())) {
                checkMailTo(() -> MailToSpec.parse(h.args(), spec.token()), spec.token(), out);
                return out;
            }
            if (h.name().equals(BuiltinFilesystem.NAME) && !locator.exists(h.name())) {
                BuiltinFilesystem.asOcf(h.args()).ifPresentOrElse(o -> checkOcf(o, spec.token(), out),
                        () -> out.add(new Problem(Kind.ERROR, BuiltinFilesystem.usage(spec.token()))));
                return out;
            }
            if (h.name().equals(org.jheartbeat.resources.script.BuiltinLdirectord.NAME) && !locator.exists(h.name())
                    && org.jheartbeat.resources.script.BuiltinLdirectord.locate().isPresent()) {
                return out;
            }
            try {
                locator.locate(h.name(), spec.token());
            } catch (AgentNotFoundException e) {
                out.add(new Problem(Kind.MISSING_SCRIPT, e.getMessage()));
            } catch (ResourceAgentException e) {
                out.add(new Problem(Kind.ERROR, e.getMessage()));
            }
        } else if (ref instanceof AgentRef.Lsb l) {
            Path script = locator.initDir().resolve(l.script());
            if (!Files.isRegularFile(script) || !Files.isExecutable(script)) {
                out.add(new Problem(Kind.ERROR, "no LSB init script " + script + " for [" + spec.token() + "]"
                        + suggest(l.script(), locator.initDir()) + "; install the package that provides it or"
                        + " correct the name"));
            }
        } else if (ref instanceof AgentRef.Systemd u) {
            String unit = u.unit().contains(".") ? u.unit() : u.unit() + ".service";
            if (unitDirs.stream().noneMatch(d -> Files.exists(d.resolve(unit)))) {
                out.add(new Problem(Kind.WARNING, "no unit file " + unit + " for [" + spec.token() + "] in "
                        + unitDirs + "; systemctl start will fail unless the unit exists on this machine"));
            }
        } else if (StandardResourceAgents.builtinOcfMailTo((AgentRef.Ocf) ref, ocf)) {
            checkMailTo(() -> MailToSpec.ofOcf(((AgentRef.Ocf) ref).params(), spec.token()), spec.token(), out);
        } else {
            checkOcf((AgentRef.Ocf) ref, spec.token(), out);
        }
        return out;
    }

    /** The built-in MailTo: its arguments, and a WARNING when there is no sendmail to hand its mail to. */
    private static void checkMailTo(java.util.function.Supplier<MailToSpec> parse, String token, List<Problem> out) {
        try {
            parse.get();
        } catch (ResourceAgentException e) {
            out.add(new Problem(Kind.ERROR, e.getMessage()));
            return;
        }
        Path sendmail = MailToAgent.configuredSendmail();
        if (!Files.isExecutable(sendmail)) {
            out.add(new Problem(Kind.WARNING, "[" + token + "] mails through " + sendmail + ", which is not installed:"
                    + " its group will start and stop without a mail; install a mail transfer agent"
                    + " (apt install exim4-daemon-light)"));
        }
    }

    private void checkOcf(AgentRef.Ocf o, String token, List<Problem> out) {
        OcfMetadata md;
        try {
            ocf.locate(o, token);
            md = ocf.metadata(o, token);
        } catch (AgentNotFoundException e) {
            Path providerDir = ocf.root().resolve("resource.d").resolve(o.provider());
            String hint = Files.isDirectory(providerDir) ? suggest(o.type(), providerDir)
                    : suggest(o.provider(), ocf.root().resolve("resource.d")).replace("did you mean ", "did you mean provider ");
            out.add(new Problem(Kind.ERROR, "unknown OCF agent " + o.qualifiedName() + " in [" + token + "]: no"
                    + " executable " + e.lookedIn().get(0) + hint + "; install resource-agents or correct the name"
                    + " (hb resources describe lists an agent's parameters)"));
            return;
        } catch (ResourceAgentException e) {
            out.add(new Problem(Kind.ERROR, "cannot read the meta-data of " + o.qualifiedName() + " for [" + token
                    + "]: " + e.getMessage() + "; check the agent with: OCF_ROOT=" + ocf.root() + " "
                    + ocf.root().resolve("resource.d").resolve(o.provider()).resolve(o.type()) + " meta-data"));
            return;
        }
        List<String> known = md.parameterNames();
        for (String name : o.params().keySet()) {
            if (!known.contains(name)) {
                out.add(new Problem(Kind.ERROR, "unknown parameter [" + name + "] of " + o.qualifiedName() + " in ["
                        + token + "]" + Suggestions.closest(name, known).map(s -> " (did you mean " + s + "?)").orElse("")
                        + "; its parameters are " + String.join(", ", known)));
            }
        }
        for (OcfMetadata.Parameter p : md.parameters()) {
            if (p.required() && !o.params().containsKey(p.name())) {
                out.add(new Problem(Kind.ERROR, "missing required parameter [" + p.name() + "] of " + o.qualifiedName()
                        + " in [" + token + "]; add ::" + p.name() + "=VALUE"
                        + (p.shortdesc().isEmpty() ? "" : " (" + p.shortdesc() + ")")));
            }
        }
    }

    /** {@code " (did you mean X?)"} for the closest file name in dir, or "". */
    private static String suggest(String name, Path dir) {
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
        } catch (IOException e) {
            return "";
        }
        Optional<String> best = Suggestions.closest(name, names);
        return best.map(s -> " (did you mean " + s + "?)").orElse("");
    }
}
