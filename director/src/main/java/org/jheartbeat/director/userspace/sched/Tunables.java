package org.jheartbeat.director.userspace.sched;

/**
 * The kernel settings that change a service's decisions, with the kernel's defaults in
 * {@link #DEFAULTS}.
 *
 * @param activeBeforeEstablished count a TCP entry active from the client's SYN (SYN_RECV), as
 *                                kernels since the 2016 patch "ipvs: count pre-established TCP
 *                                states as active" do; {@code false} (the default here, the
 *                                {@code ServiceScheduling} contract) counts it inactive until
 *                                ESTABLISHED, as older kernels did
 * @param expireQuiescentTemplate {@code /proc/sys/net/ipv4/vs/expire_quiescent_template}: a
 *                                template pointing at a weight-0 destination is invalid (default off)
 * @param tcpTimeoutSeconds       ESTABLISHED timeout ({@code ipvsadm --set tcp}), default 900
 * @param tcpFinTimeoutSeconds    FIN_WAIT timeout ({@code --set tcpfin}), default 120
 * @param udpTimeoutSeconds       UDP timeout ({@code --set udp}), default 300
 * @param lblcExpirationSeconds   {@code lblc_expiration}, default 86400 (24 h)
 * @param lblcrExpirationSeconds  {@code lblcr_expiration}, default 86400 (24 h)
 */
public record Tunables(boolean activeBeforeEstablished, boolean expireQuiescentTemplate, int tcpTimeoutSeconds,
        int tcpFinTimeoutSeconds, int udpTimeoutSeconds, int lblcExpirationSeconds, int lblcrExpirationSeconds) {

    /** The kernel's defaults (facts lvs.md §1.0, §1.7, §2.4), ESTABLISHED-only active counting. */
    public static final Tunables DEFAULTS = new Tunables(false, false, 900, 120, 300, 86_400, 86_400);

    public Tunables {
        if (tcpTimeoutSeconds <= 0 || tcpFinTimeoutSeconds <= 0 || udpTimeoutSeconds <= 0
                || lblcExpirationSeconds <= 0 || lblcrExpirationSeconds <= 0) {
            throw new IllegalArgumentException("timeouts must be positive seconds");
        }
    }

    /** The same with pre-established TCP states counted active (current kernels). */
    public Tunables withActiveBeforeEstablished(boolean on) {
        return new Tunables(on, expireQuiescentTemplate, tcpTimeoutSeconds, tcpFinTimeoutSeconds, udpTimeoutSeconds,
                lblcExpirationSeconds, lblcrExpirationSeconds);
    }

    /** The same with {@code expire_quiescent_template} set. */
    public Tunables withExpireQuiescentTemplate(boolean on) {
        return new Tunables(activeBeforeEstablished, on, tcpTimeoutSeconds, tcpFinTimeoutSeconds, udpTimeoutSeconds,
                lblcExpirationSeconds, lblcrExpirationSeconds);
    }

    /** An entry's timeout in a state (ns): the kernel's fixed ones, the {@code ipvsadm --set} ones from here. */
    long timeoutNanos(IpvsService.State s) {
        return IpvsService.SECOND * switch (s) {
            case NONE -> 2;
            case SYN_RECV -> 60;
            case ESTABLISHED -> tcpTimeoutSeconds();
            case FIN_WAIT -> tcpFinTimeoutSeconds();
            case TIME_WAIT -> 120;
            case CLOSE -> 10;
            case UDP -> udpTimeoutSeconds();
        };
    }
}
