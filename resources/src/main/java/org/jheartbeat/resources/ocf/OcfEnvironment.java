package org.jheartbeat.resources.ocf;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jheartbeat.core.config.AgentRef;

/**
 * The environment of one OCF agent run, as the OCF resource-agent API 1.0 defines it and Pacemaker's
 * executor sets it: {@code OCF_ROOT}, {@code OCF_RA_VERSION_MAJOR}/{@code _MINOR} (1.0), {@code
 * OCF_RESOURCE_INSTANCE}, {@code OCF_RESOURCE_TYPE}, {@code OCF_RESOURCE_PROVIDER}, one {@code
 * OCF_RESKEY_<name>} per instance parameter, and {@code OCF_RESKEY_CRM_meta_timeout} (the
 * operation's timeout in milliseconds, which agents such as Filesystem use to pace their stop).
 * Pure.
 */
public final class OcfEnvironment {
    /** Longest {@code OCF_RESOURCE_INSTANCE}: 64 characters. */
    public static final int MAX_INSTANCE = 64;

    private OcfEnvironment() {
    }

    /**
     * @param ocfRoot  normally {@code /usr/lib/ocf}
     * @param agent    the resource
     * @param instance the resource's instance name ({@link #instanceName})
     * @param timeout  the operation's timeout
     * @return the variables to add to the inherited environment, in a stable order
     */
    public static Map<String, String> of(Path ocfRoot, AgentRef.Ocf agent, String instance, Duration timeout) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("OCF_ROOT", ocfRoot.toString());
        env.put("OCF_RA_VERSION_MAJOR", "1");
        env.put("OCF_RA_VERSION_MINOR", "0");
        env.put("OCF_RESOURCE_INSTANCE", instance);
        env.put("OCF_RESOURCE_TYPE", agent.type());
        env.put("OCF_RESOURCE_PROVIDER", agent.provider());
        agent.params().forEach((k, v) -> env.put("OCF_RESKEY_" + k, v));
        env.put("OCF_RESKEY_CRM_meta_timeout", Long.toString(timeout.toMillis()));
        return env;
    }

    /**
     * The instance name of a resource (Pacemaker uses the resource id; haresources has only the
     * token): the token with every character other than letters, digits, {@code _ . -} replaced by
     * {@code _}; a token longer than {@link #MAX_INSTANCE} keeps its first 55 characters and gets
     * {@code _} and 8 hex digits of its hash, so two tokens never share a name in practice. The
     * agents use it for state file names, so it must not change between start and stop.
     *
     * @param token the haresources token
     * @return a file-name-safe, stable name
     */
    public static String instanceName(String token) {
        String safe = token.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (safe.length() <= MAX_INSTANCE) {
            return safe;
        }
        return safe.substring(0, 55) + "_" + String.format("%08x", token.hashCode());
    }
}
