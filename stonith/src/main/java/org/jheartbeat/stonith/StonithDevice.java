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

    @Override
    default void close() {
    }
}
