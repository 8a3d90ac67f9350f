package org.jheartbeat.stonith.device.nil;

import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.TestOnlyHostListDevice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Type {@code null}, parameter {@code hostlist}. Every operation answers {@link StonithResult#OK}
 * without touching anything; like cluster-glue's {@code null} plugin, even a reset of a node not in
 * the host list is OK (verified with {@code stonith -t null}, facts stonith-sync §2.1). A loud WARN
 * is logged when it is configured: nodes are not fenced, so shared data is not protected.
 */
public final class NullDevice extends TestOnlyHostListDevice {
    /** The type name in ha.cf. */
    public static final String TYPE = "null";
    /** Text of the warning logged at {@link #configure}. */
    public static final String WARNING =
            "null STONITH device: nodes are NOT fenced; for labs only";
    private static final Logger LOG = LoggerFactory.getLogger(NullDevice.class);

    public NullDevice() {
        super(TYPE, WARNING, LOG);
    }







    /** Logs the request at WARN and answers OK, whatever the node. */
    @Override
    public StonithResult reset(ResetRequest request, String node) {
        LOG.warn("null STONITH device: pretending to {} {} (nothing done)", request.word(), node);
        return StonithResult.OK;
    }
}
