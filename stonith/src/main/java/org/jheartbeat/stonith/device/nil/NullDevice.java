package org.jheartbeat.stonith.device.nil;

import java.util.List;
import java.util.Map;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.HostList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Type {@code null}, parameter {@code hostlist}. Every operation answers {@link StonithResult#OK}
 * without touching anything; like cluster-glue's {@code null} plugin, even a reset of a node not in
 * the host list is OK (verified with {@code stonith -t null}, facts stonith-sync §2.1). A loud WARN
 * is logged when it is configured: nodes are not fenced, so shared data is not protected.
 */
public final class NullDevice implements StonithDevice {
    /** The type name in ha.cf. */
    public static final String TYPE = "null";
    /** Text of the warning logged at {@link #configure}. */
    public static final String WARNING =
            "null STONITH device: nodes are NOT fenced; for labs only";
    private static final Logger LOG = LoggerFactory.getLogger(NullDevice.class);

    private List<String> hosts = List.of();

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public List<String> configNames() {
        return List.of("hostlist");
    }

    /** @throws StonithConfigException when {@code hostlist} is missing or empty */
    @Override
    public void configure(Map<String, String> params) throws StonithConfigException {
        hosts = HostList.required(params, "hostlist", TYPE);
        LOG.warn("{} (hosts {})", WARNING, hosts);
    }

    @Override
    public StonithResult status() {
        return StonithResult.OK;
    }

    @Override
    public List<String> hostList() {
        return hosts;
    }

    /** Logs the request at WARN and answers OK, whatever the node. */
    @Override
    public StonithResult reset(ResetRequest request, String node) {
        LOG.warn("null STONITH device: pretending to {} {} (nothing done)", request.word(), node);
        return StonithResult.OK;
    }
}
