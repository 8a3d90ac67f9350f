package org.jheartbeat.director.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.RealServer;
import org.jheartbeat.director.config.VirtualService;

/** What the {@link DirectorKernel} knows of its virtual services and their reals (its own state, not the table's). */
final class KernelStates {
    private KernelStates() {
    }

    /** What the kernel knows of one real server. */
    static final class RealState {
        RealServer real;
        boolean up;
        int failures;

        RealState(RealServer real) {
            this.real = real;
        }
    }

    /** What the kernel knows of one virtual service. */
    static final class VirtualState {
        VirtualService virtual;
        final Map<Endpoint, RealState> reals = new LinkedHashMap<>();
        boolean fallbackOn;

        VirtualState(VirtualService virtual) {
            this.virtual = virtual;
        }
    }
}
