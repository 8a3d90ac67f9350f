package org.jheartbeat.stonith;

import java.util.List;
import java.util.Map;

/**
 * A fencing device: something that can power a node off, on, or cycle it. The same operations
 * cluster-glue's STONITH plugins offer ({@code stonith.h}: status, host list, reset with a request
 * type, config names). Implementations block for the duration of the operation (seconds), so
 * callers run them off the cluster loop's thread; each applies its own timeouts.
 */
public interface StonithDevice extends AutoCloseable {

    /** The type name as in ha.cf and {@code stonith -t}, e.g. {@code apcsmart}, {@code external/ssh}. */
    String type();

    /** The parameter names, in the order of cluster-glue's {@code -p} string / ha.cf {@code stonith_host} words. */
    List<String> configNames();

    /**
     * Sets the parameters; called once, before any operation.
     *
     * @throws StonithConfigException naming the missing or wrong parameter
     */
    void configure(Map<String, String> params) throws StonithConfigException;

    /** Checks that the device answers (e.g. the UPS replies on its line). */
    StonithResult status();

    /** The nodes this device can fence (lowercase names). */
    List<String> hostList();

    /**
     * Fences {@code node}.
     *
     * @return {@link StonithResult#OK} only when the device confirmed the operation
     */
    StonithResult reset(ResetRequest request, String node);

    /**
     * Whether {@link ResetRequest#POWER_OFF} switches the node off without waiting for a device-side delay and
     * returns {@link StonithResult#OK} only once the device confirmed the node is off: then fencing for a
     * takeover may power the node off instead of resetting it (docs/design/stonith.md, "Fencing action").
     * Default: no (cluster-glue's devices differ in what {@code off} means; a reset is what Heartbeat asks).
     */
    default boolean confirmsPowerOff() {
        return false;
    }

    @Override
    default void close() {
    }
}
