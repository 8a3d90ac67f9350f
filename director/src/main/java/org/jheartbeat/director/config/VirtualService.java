package org.jheartbeat.director.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code virtual=} block of ldirectord.cf with every default resolved as ldirectord 4.x does
 * (globals apply where the block says nothing; see {@link LdirectordParser}).
 *
 * @param key              protocol and address, or firewall mark
 * @param line             the line of the {@code virtual=} directive
 * @param reals            the real servers, in file order
 * @param scheduler        {@code scheduler}, default {@code wrr}
 * @param schedFlags       {@code schedflags} (ipvsadm {@code -b}), if given
 * @param persistent       {@code persistent} seconds (ipvsadm {@code -p}), if given
 * @param netmask          {@code netmask} (ipvsadm {@code -M}, used only with persistent), if given
 * @param ops              {@code ops=yes}: one-packet scheduling (UDP only)
 * @param checkType        {@code checktype}: negotiate (default), connect, ping, external,
 *                         external-perl, off, on, or a number
 * @param service          {@code service}, default from the virtual port ({@code none} if unknown)
 * @param checkPort        {@code checkport}, if given
 * @param request          {@code request}, if given
 * @param receive          {@code receive}, if given
 * @param httpMethod       {@code httpmethod}, GET or HEAD
 * @param virtualHost      {@code virtualhost}, if given
 * @param login            {@code login}, if given (ftp defaults to anonymous)
 * @param passwd           {@code passwd}, if given
 * @param database         {@code database}, if given
 * @param secret           {@code secret}, if given
 * @param checkCommand     {@code checkcommand}, default {@code /bin/true}
 * @param fallback         {@code fallback} (own or global), if any
 * @param fallbackCommand  {@code fallbackcommand} (own or global), if any
 * @param quiescent        {@code quiescent}, default no
 * @param cleanStop        {@code cleanstop}, default yes
 * @param checkTimeout     the timeout of connect, ping and external checks (default 5 s)
 * @param negotiateTimeout the timeout of negotiate checks (default 30 s)
 * @param checkInterval    {@code checkinterval}, default 10 s
 * @param checkCount       {@code checkcount}, default 1 (ping attempts)
 * @param failureCount     {@code failurecount}, default 1: consecutive failures before a real is down
 * @param emailAlert       {@code emailalert}, if given
 * @param emailAlertFreq   {@code emailalertfreq} in seconds, default 0
 * @param emailAlertStatus {@code emailalertstatus}, default {@code all}
 * @param smtp             {@code smtp}, if given
 * @param monitorFile      {@code monitorfile}, if given
 * @param serviceName      {@code servicename}, if given
 * @param comment          {@code comment}, if given
 * @param checkCaFile      {@code checkcafile} (own or global; a jheartbeat extension): TLS checks verify the
 *                         real's certificate against the CAs of this PEM file; empty: any certificate (ldirectord)
 * @param rejoin           {@code resetcounts} and {@code slowstart} (own or global; jheartbeat extensions): what
 *                         happens when a real rejoins ({@link Rejoin#OFF}: as ldirectord)
 */
public record VirtualService(
        ServiceKey key, int line, List<RealServer> reals, String scheduler, Optional<String> schedFlags,
        Optional<Integer> persistent, Optional<String> netmask, boolean ops, String checkType, String service,
        Optional<Integer> checkPort, Optional<String> request, Optional<String> receive, String httpMethod,
        Optional<String> virtualHost, Optional<String> login, Optional<String> passwd, Optional<String> database,
        Optional<String> secret, String checkCommand, Optional<FallbackServer> fallback,
        Optional<String> fallbackCommand, boolean quiescent, boolean cleanStop, Duration checkTimeout,
        Duration negotiateTimeout, Duration checkInterval, int checkCount, int failureCount,
        Optional<String> emailAlert, int emailAlertFreq, String emailAlertStatus, Optional<String> smtp,
        Optional<String> monitorFile, Optional<String> serviceName, Optional<String> comment,
        Optional<java.nio.file.Path> checkCaFile, Rejoin rejoin) {

    public VirtualService {
        Objects.requireNonNull(rejoin, "rejoin");
        Objects.requireNonNull(key, "key");
        reals = List.copyOf(reals);
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(checkType, "checkType");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(checkTimeout, "checkTimeout");
        Objects.requireNonNull(negotiateTimeout, "negotiateTimeout");
        Objects.requireNonNull(checkInterval, "checkInterval");
        Objects.requireNonNull(checkCaFile, "checkCaFile");
        if (failureCount < 1) {
            throw new IllegalArgumentException("failurecount < 1");
        }
    }

    /**
     * The bound of one check of this service: {@link #negotiateTimeout} for negotiate checks
     * (and the numbered combined form), {@link #checkTimeout} for connect, ping and external, as
     * ldirectord 4.x.
     */
    public Duration timeoutOfOneCheck() {
        boolean negotiate = "negotiate".equals(checkType) || checkType.chars().allMatch(Character::isDigit);
        return negotiate ? negotiateTimeout : checkTimeout;
    }

    /**
     * The port a check of {@code real} connects to: {@code checkport} when given, else the real's own port, else
     * (a real written without a port) the virtual port, as ldirectord's {@code ld_checkport}.
     */
    public int checkPortOf(RealServer real) {
        int port = checkPort.orElse(real.endpoint().port());
        return port == 0 ? key.port() : port;
    }

    /**
     * ipvsadm's service flags as ldirectord builds them:
     * {@code -t|-u|-f ADDR [-6] [-o] -s SCHED [-p T [-M MASK]] [-b FLAGS]}.
     */
    public List<String> ipvsadmServiceFlags() {
        return key.ipvsadmServiceArgs(ops, scheduler, persistent, netmask, schedFlags);
    }

    /** Whether {@code other} checks its reals as this one does (type, service, port, request, answer, host, quiescent). */
    public boolean sameChecks(VirtualService other) {
        return checkType.equals(other.checkType) && service.equals(other.service) && checkPort.equals(other.checkPort)
                && request.equals(other.request) && receive.equals(other.receive)
                && virtualHost.equals(other.virtualHost) && quiescent == other.quiescent;
    }
}
