package org.jheartbeat.stonith.device;

import java.util.List;
import java.util.Map;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.StonithResult;
import org.slf4j.Logger;

/**
 * Base of the devices whose only parameter is {@code hostlist} and which cannot fence a hung
 * machine for real ({@code null}, {@code ssh}: cluster-glue marks both "test only"): one parameter,
 * a loud warning at configure, a status that is always OK.
 */
public abstract class TestOnlyHostListDevice implements StonithDevice {
    private final String type;
    private final String warning;
    private final Logger log;
    private List<String> hosts = List.of();

    /**
     * @param type    the device type
     * @param warning what to log at WARN when configured
     * @param log     the subclass's logger
     */
    protected TestOnlyHostListDevice(String type, String warning, Logger log) {
        this.type = type;
        this.warning = warning;
        this.log = log;
    }

    @Override
    public final String type() {
        return type;
    }

    @Override
    public final List<String> configNames() {
        return List.of("hostlist");
    }

    /** @throws StonithConfigException when {@code hostlist} is missing or empty */
    @Override
    public final void configure(Map<String, String> params) throws StonithConfigException {
        hosts = HostList.required(params, "hostlist", type);
        log.warn("{} (hosts {})", warning, hosts);
    }

    /** Always OK: there is no hardware to ask. */
    @Override
    public final StonithResult status() {
        return StonithResult.OK;
    }

    @Override
    public final List<String> hostList() {
        return hosts;
    }
}
