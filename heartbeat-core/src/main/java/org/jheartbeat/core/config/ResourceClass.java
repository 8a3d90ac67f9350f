package org.jheartbeat.core.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The kind of program that manages a haresources resource, named like Pacemaker's resource
 * classes ({@code crm_resource --list-standards}): the class prefix of a token such as {@code
 * lsb:lighttpd} or {@code ocf:heartbeat:IPaddr2::ip=198.18.0.100}. A token without a class prefix
 * is {@link #HEARTBEAT}, read with Heartbeat 1 rules exactly as Heartbeat 3.0.6's ResourceManager
 * does. See docs/design/resources.md, "Agent classes".
 */
public enum ResourceClass {
    /** {@code resource.d} scripts and bare {@code init.d} names, plus the built-in IPaddr/IPaddr2/drbddisk. */
    HEARTBEAT("heartbeat"),
    /** An {@code /etc/init.d} script driven by LSB exit codes (LSB 3.0 "Init Script Actions"). */
    LSB("lsb"),
    /** An OCF resource agent, {@code /usr/lib/ocf/resource.d/PROVIDER/TYPE} (OCF resource-agent API 1.0). */
    OCF("ocf"),
    /** A systemd unit driven with {@code systemctl start/stop/is-active}. */
    SYSTEMD("systemd");

    private final String prefix;

    ResourceClass(String prefix) {
        this.prefix = prefix;
    }

    /** @return the word written before the first {@code :} in haresources, e.g. {@code ocf} */
    public String prefix() {
        return prefix;
    }

    /**
     * @param word a class word as written (case-insensitive, as Pacemaker's standards)
     * @return the class, or empty if the word names none
     */
    public static Optional<ResourceClass> ofPrefix(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(c -> c.prefix.equals(lower)).findFirst();
    }

    /** @return every class word, in declaration order, for messages and suggestions */
    public static List<String> prefixes() {
        return Arrays.stream(values()).map(ResourceClass::prefix).toList();
    }
}
