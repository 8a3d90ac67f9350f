package org.jheartbeat.core.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a haresources resource token names, typed by its {@link ResourceClass}. Syntax (the
 * {@code ::} argument separator is Heartbeat's; the class prefixes are Pacemaker's standards):
 * <pre>
 *   labweb::8080                              HEARTBEAT: resource.d/labweb then /etc/init.d/labweb, args as today
 *   heartbeat:labweb::8080                    HEARTBEAT, written explicitly
 *   lsb:lighttpd    lsb::lighttpd             LSB: /etc/init.d/lighttpd
 *   systemd:mariadb  systemd::mariadb         SYSTEMD: unit mariadb(.service)
 *   ocf:heartbeat:Filesystem::device=/dev/loop0::directory=/srv/data::fstype=ext4
 *                                             OCF: /usr/lib/ocf/resource.d/heartbeat/Filesystem
 *   ...::op_timeout=90s::op_stop_timeout=2min per-resource timeouts (every class)
 *   ...::op_monitor_interval=30s::op_restart_limit=3::op_restart_window=10min   monitoring (every class;
 *                                             a HEARTBEAT resource is watched only when asked)
 * </pre>
 * The words {@code lsb}, {@code systemd} and {@code ocf} followed by {@code ::} are class names,
 * not script names. Pure; {@link #parse} never touches the file system.
 */
public sealed interface AgentRef {
    /** @return the class of the program that manages the resource */
    ResourceClass resourceClass();

    /** @return the per-resource timeouts and monitor options written in haresources */
    OperationTimeouts timeouts();

    /**
     * A {@code resource.d} or {@code init.d} script (or built-in IPaddr/IPaddr2/drbddisk) with Heartbeat 1 rules.
     *
     * @param name     the script name
     * @param args     the {@code ::} arguments, passed before the operation as Heartbeat 3.0.6 does
     * @param timeouts the {@code ::op_...=} options among the arguments (taken out of {@code args}); a real
     *                 Heartbeat reading the same haresources would pass them to the script as arguments
     */
    record Heartbeat(String name, List<String> args, OperationTimeouts timeouts) implements AgentRef {
        public Heartbeat {
            Objects.requireNonNull(name, "name");
            args = List.copyOf(args);
            Objects.requireNonNull(timeouts, "timeouts");
        }

        /** A script without {@code op_} options. */
        public Heartbeat(String name, List<String> args) {
            this(name, args, OperationTimeouts.NONE);
        }

        @Override
        public ResourceClass resourceClass() {
            return ResourceClass.HEARTBEAT;
        }
    }

    /**
     * An LSB init script in {@code /etc/init.d}.
     *
     * @param script   the script name
     * @param timeouts per-resource timeouts
     */
    record Lsb(String script, OperationTimeouts timeouts) implements AgentRef {
        public Lsb {
            Objects.requireNonNull(script, "script");
            Objects.requireNonNull(timeouts, "timeouts");
        }

        @Override
        public ResourceClass resourceClass() {
            return ResourceClass.LSB;
        }
    }

    /**
     * A systemd unit.
     *
     * @param unit     the unit as written ({@code systemctl} adds {@code .service} to a bare name)
     * @param timeouts per-resource timeouts
     */
    record Systemd(String unit, OperationTimeouts timeouts) implements AgentRef {
        public Systemd {
            Objects.requireNonNull(unit, "unit");
            Objects.requireNonNull(timeouts, "timeouts");
        }

        @Override
        public ResourceClass resourceClass() {
            return ResourceClass.SYSTEMD;
        }
    }

    /**
     * An OCF resource agent.
     *
     * @param provider the provider directory, e.g. {@code heartbeat}
     * @param type     the agent, e.g. {@code Filesystem}
     * @param params   instance parameters in the order written (exported as {@code OCF_RESKEY_<name>})
     * @param timeouts per-resource timeouts
     */
    record Ocf(String provider, String type, Map<String, String> params, OperationTimeouts timeouts)
            implements AgentRef {
        public Ocf {
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(type, "type");
            params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
            Objects.requireNonNull(timeouts, "timeouts");
        }

        @Override
        public ResourceClass resourceClass() {
            return ResourceClass.OCF;
        }

        /** @return {@code ocf:PROVIDER:TYPE} */
        public String qualifiedName() {
            return "ocf:" + provider + ":" + type;
        }
    }

    /** OCF parameter names become environment variable names ({@code OCF_RESKEY_<name>}). */
    Pattern PARAM_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Script, provider, agent and unit names: no path separators, no blanks. */
    Pattern NAME = Pattern.compile("[A-Za-z0-9_.@+\\\\-]+");

    /**
     * Reads the class and arguments of one token.
     *
     * @param spec the token, split on {@code ::} by {@link HaresourcesParser#resource}
     * @return the typed reference
     * @throws IllegalArgumentException with one line saying what is wrong and what to write instead:
     *         an unknown class, a malformed {@code ocf:PROVIDER:TYPE}, an argument of an LSB/systemd
     *         resource other than a timeout, an OCF argument that is not {@code name=value}, a
     *         parameter given twice, an unknown {@code op_} option or a timeout that does not parse
     */
    static AgentRef parse(ResourceSpec spec) {
        String agent = spec.agent();
        List<String> args = spec.args();
        String token = spec.token();
        if (!agent.contains(":")) {
            if (agent.equals("lsb") || agent.equals("systemd")) {
                if (args.isEmpty() || args.get(0).isEmpty()) {
                    throw new IllegalArgumentException("resource [" + token + "] names no " + agent + " service;"
                            + " write " + agent + ":NAME or " + agent + "::NAME");
                }
                return classed(ResourceClass.ofPrefix(agent).orElseThrow(), new String[] {agent, args.get(0)},
                        args.subList(1, args.size()), token);
            }
            if (agent.equals("ocf")) {
                throw new IllegalArgumentException("resource [" + token + "] names no OCF agent; write"
                        + " ocf:PROVIDER:TYPE[::name=value...], e.g. ocf:heartbeat:IPaddr2::ip=198.18.0.100");
            }
            return heartbeat(agent, args, token);
        }
        String[] parts = agent.split(":", -1);
        ResourceClass cls = ResourceClass.ofPrefix(parts[0]).orElseThrow(() -> new IllegalArgumentException(
                "unknown resource class [" + parts[0] + "] in [" + token + "]"
                        + Suggestions.closest(parts[0].toLowerCase(java.util.Locale.ROOT), ResourceClass.prefixes())
                        .map(s -> " (did you mean " + s + "?)").orElse("")
                        + "; write one of " + String.join(", ", ResourceClass.prefixes())
                        + " before the first ':', e.g. lsb:apache2 or ocf:heartbeat:IPaddr2::ip=..."));
        return classed(cls, parts, args, token);
    }

    /**
     * A Heartbeat-class script: an argument {@code op_KEY=VALUE} whose key is one of {@link OperationTimeouts#KEYS}
     * is an option, every other argument stays the script's, in order (Heartbeat passes anything). IPaddr and
     * IPaddr2 keep theirs: they take the address only, and the parser says so.
     */
    private static AgentRef heartbeat(String name, List<String> args, String token) {
        if (name.equals(ResourceSpec.IPADDR) || name.equals("IPaddr2")) {
            return new Heartbeat(name, args);
        }
        OperationTimeouts timeouts = OperationTimeouts.NONE;
        List<String> scriptArgs = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String key = eq < 0 ? arg : arg.substring(0, eq);
            if (eq < 0 || !OperationTimeouts.KEYS.contains(key)) {
                scriptArgs.add(arg);
                continue;
            }
            if (seen.contains(key)) {
                throw new IllegalArgumentException("[" + key + "] is given twice in resource [" + token + "]; keep one");
            }
            seen.add(key);
            try {
                timeouts = timeouts.with(key, arg.substring(eq + 1));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + " of resource [" + token + "]: " + e.getMessage());
            }
        }
        return new Heartbeat(name, scriptArgs, timeouts);
    }

    private static AgentRef classed(ResourceClass cls, String[] parts, List<String> args, String token) {
        int expected = cls == ResourceClass.OCF ? 3 : 2;
        String form = switch (cls) {
            case OCF -> "ocf:PROVIDER:TYPE, e.g. ocf:heartbeat:Filesystem";
            case LSB -> "lsb:SCRIPT, e.g. lsb:apache2";
            case SYSTEMD -> "systemd:UNIT, e.g. systemd:mariadb";
            case HEARTBEAT -> "heartbeat:SCRIPT, e.g. heartbeat:IPaddr";
        };
        if (parts.length != expected) {
            throw new IllegalArgumentException("resource [" + token + "] is not of the form " + form);
        }
        for (int i = 1; i < parts.length; i++) {
            if (!NAME.matcher(parts[i]).matches() || parts[i].equals(".") || parts[i].equals("..")) {
                throw new IllegalArgumentException("bad name [" + parts[i] + "] in resource [" + token + "]: letters,"
                        + " digits and _ . @ + - only; write " + form);
            }
        }
        if (cls == ResourceClass.HEARTBEAT) {
            return heartbeat(parts[1], args, token);
        }
        OperationTimeouts timeouts = OperationTimeouts.NONE;
        Map<String, String> params = new LinkedHashMap<>();
        List<String> seen = new ArrayList<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String key = eq < 0 ? arg : arg.substring(0, eq);
            String value = eq < 0 ? "" : arg.substring(eq + 1);
            if (eq <= 0) {
                throw new IllegalArgumentException("argument [" + arg + "] of resource [" + token + "] is not name=value;"
                        + (cls == ResourceClass.OCF ? " write ::name=value for each OCF parameter"
                        : " " + cls.prefix() + " resources take only " + String.join("=, ", OperationTimeouts.KEYS) + "="));
            }
            if (seen.contains(key)) {
                throw new IllegalArgumentException("[" + key + "] is given twice in resource [" + token + "]; keep one");
            }
            seen.add(key);
            if (key.startsWith("op_")) {
                if (!OperationTimeouts.KEYS.contains(key)) {
                    throw new IllegalArgumentException("unknown option [" + key + "] in resource [" + token + "]"
                            + Suggestions.closest(key, OperationTimeouts.KEYS).map(s -> " (did you mean " + s + "?)")
                            .orElse("") + "; the op_ options are " + String.join(", ", OperationTimeouts.KEYS));
                }
                try {
                    timeouts = timeouts.with(key, value);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(key + " of resource [" + token + "]: " + e.getMessage());
                }
                continue;
            }
            if (cls != ResourceClass.OCF) {
                throw new IllegalArgumentException("argument [" + arg + "] of resource [" + token + "]: "
                        + cls.prefix() + " resources take no parameters, only " + String.join(", ", OperationTimeouts.KEYS)
                        + "; remove it (an LSB script or unit reads its own configuration)");
            }
            if (!PARAM_NAME.matcher(key).matches()) {
                throw new IllegalArgumentException("bad OCF parameter name [" + key + "] in resource [" + token
                        + "]: letters, digits and _ only, as it becomes OCF_RESKEY_" + key);
            }
            params.put(key, value);
        }
        return switch (cls) {
            case LSB -> new Lsb(parts[1], timeouts);
            case SYSTEMD -> new Systemd(parts[1], timeouts);
            case OCF -> new Ocf(parts[1], parts[2], params, timeouts);
            case HEARTBEAT -> throw new IllegalStateException("handled above");
        };
    }
}
