package org.jheartbeat.cli.command;

import org.jheartbeat.director.table.IpvsadmBackend;

/** How {@code hb lvs} runs ipvsadm: real processes, inheriting the environment. */
final class IpvsadmBackendRunner {
    /** Processes with no extra environment. */
    static final IpvsadmBackend.Runner OS = IpvsadmBackend.processes(java.util.Map.of());

    private IpvsadmBackendRunner() {
    }
}
