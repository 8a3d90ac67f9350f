package org.jheartbeat.stonith.device;

import java.util.List;
import org.jheartbeat.stonith.StonithDevice;

/**
 * Base of the devices whose type and parameter names are known before they are configured (every
 * built-in type but the external plugins and fence agents, which ask their program): answers
 * {@link #type()} and {@link #configNames()}.
 */
public abstract class FixedTypeDevice implements StonithDevice {
    private final String type;
    private final List<String> configNames;

    /**
     * @param type        the type name as in ha.cf, e.g. {@code nut}
     * @param configNames the parameter names in cluster-glue's {@code -p} order
     */
    protected FixedTypeDevice(String type, List<String> configNames) {
        this.type = type;
        this.configNames = List.copyOf(configNames);
    }

    @Override
    public final String type() {
        return type;
    }

    @Override
    public final List<String> configNames() {
        return configNames;
    }
}
