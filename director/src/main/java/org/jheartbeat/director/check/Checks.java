package org.jheartbeat.director.check;

import java.util.List;
import java.util.Locale;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessRunner;

/**
 * Chooses the health check for a virtual service's {@code checktype} and {@code service}, as
 * ldirectord 4.x does. This is the one place the director asks for a check.
 *
 * <p>checktypes: {@code negotiate} (the service's own protocol check), {@code connect} (TCP
 * connect; ping for udp services), {@code ping}, {@code external}, {@code external-perl},
 * {@code on}, {@code off}, and a number N ({@link CombinedCheck}). services: those ldirectord 4.x
 * accepts ({@link #SERVICES}); with negotiate, {@code none} is always up and {@code ldaps} is
 * checked over TLS. {@code oracle} has no negotiate check here (it needs Oracle's client
 * library): the combination is rejected with what to use instead.
 */
public final class Checks {
    /** The {@code service} values ldirectord 4.x accepts. */
    public static final List<String> SERVICES = List.of("dns", "ftp", "http", "https", "http_proxy", "imap",
            "imaps", "ldap", "ldaps", "mysql", "nntp", "none", "oracle", "pgsql", "pop", "pops", "radius",
            "simpletcp", "sip", "smtp", "submission");

    /** The non-numeric {@code checktype} values ldirectord 4.x accepts. */
    public static final List<String> CHECK_TYPES = List.of("negotiate", "connect", "ping", "external",
            "external-perl", "off", "on");

    private static final ProcessRunner RUNNER = new OsProcessRunner();

    private Checks() {
    }

    /**
     * The check for one virtual service, running ping and external commands with the system's
     * process runner.
     *
     * @param checkType ldirectord's {@code checktype} (connect, negotiate, external, ping, off, on,
     *                  or a number: negotiate every N-th time, connect otherwise)
     * @param service   ldirectord's {@code service} (http, https, ftp, smtp, imap, dns, …, none);
     *                  {@code null} or empty means none
     * @return the check; a new stateful {@link CombinedCheck} for a numeric checktype, so ask once
     *         per virtual service and keep it
     * @throws IllegalArgumentException if the checktype or service is unknown, or the combination
     *                                  is not supported; the message says what to write instead
     */
    public static HealthCheck forService(String checkType, String service) {
        return forService(checkType, service, RUNNER);
    }

    /**
     * As {@link #forService(String, String)}, with the runner for ping and external checks.
     *
     * @throws IllegalArgumentException as there
     */
    public static HealthCheck forService(String checkType, String service, ProcessRunner runner) {
        return forService(checkType, service, runner, java.util.Optional.empty());
    }

    /**
     * As {@link #forService(String, String)}, with {@code checkcafile}: a TLS check (https, imaps, pops, ldaps) then
     * verifies the real's certificate against the CAs of that PEM file, and the {@code virtualhost} name when it is
     * one, before it sends anything ({@link CheckTrust}).
     *
     * @throws IllegalArgumentException as there
     */
    public static HealthCheck forService(String checkType, String service, java.util.Optional<java.nio.file.Path> caFile) {
        return forService(checkType, service, RUNNER, caFile);
    }

    private static HealthCheck forService(String checkType, String service, ProcessRunner runner,
                                          java.util.Optional<java.nio.file.Path> caFile) {
        String type = checkType == null ? "" : checkType.strip().toLowerCase(Locale.ROOT);
        String svc = service == null || service.isBlank() ? "none" : service.strip().toLowerCase(Locale.ROOT);
        if (!SERVICES.contains(svc)) {
            throw new IllegalArgumentException("service \"" + service + "\" is not one ldirectord knows; use one of "
                    + String.join(", ", SERVICES));
        }
        if (type.matches("\\d{1,9}")) {
            HealthCheck negotiate = negotiate(svc, "checktype=" + type, caFile);
            return new CombinedCheck(Integer.parseInt(type), new ConnectOrPingCheck(new ConnectCheck(),
                    new PingCheck(runner)), negotiate);
        }
        return switch (type) {
            case "negotiate" -> negotiate(svc, "checktype=negotiate", caFile);
            case "connect" -> new ConnectOrPingCheck(new ConnectCheck(), new PingCheck(runner));
            case "ping" -> new PingCheck(runner);
            case "external" -> new ExternalCheck(runner, false);
            case "external-perl" -> new ExternalCheck(runner, true);
            case "on" -> FixedCheck.ON;
            case "off" -> FixedCheck.OFF;
            case "negotiate_connect" -> throw new IllegalArgumentException("checktype negotiate_connect is not"
                    + " accepted by ldirectord 4.x; write a number N instead (negotiate after N passed connect checks)");
            default -> throw new IllegalArgumentException("checktype \"" + checkType + "\" is unknown; use one of "
                    + String.join(", ", CHECK_TYPES) + ", or a number N (negotiate after N passed connect checks)");
        };
    }

    private static HealthCheck negotiate(String service, String context, java.util.Optional<java.nio.file.Path> caFile) {
        CheckTrust trust = CheckTrust.of(caFile);
        return switch (service) {
            case "http" -> new HttpCheck(HttpCheck.Kind.HTTP);
            case "https" -> new HttpCheck(HttpCheck.Kind.HTTPS, trust);
            case "http_proxy" -> new HttpCheck(HttpCheck.Kind.PROXY);
            case "ftp" -> new FtpCheck();
            case "smtp", "submission" -> new SmtpCheck();
            case "pop" -> new PopCheck(false);
            case "pops" -> new PopCheck(true, trust);
            case "imap" -> new ImapCheck(false);
            case "imaps" -> new ImapCheck(true, trust);
            case "ldap" -> new LdapCheck(false);
            case "ldaps" -> new LdapCheck(true, trust);
            case "nntp" -> new NntpCheck();
            case "dns" -> new DnsCheck();
            case "sip" -> new SipCheck();
            case "radius" -> new RadiusCheck();
            case "mysql" -> new MysqlCheck();
            case "pgsql" -> new PgsqlCheck();
            case "simpletcp" -> new SimpleTcpCheck();
            case "none" -> FixedCheck.ON;
            case "oracle" -> throw new IllegalArgumentException(context + " with service oracle is not supported"
                    + " (it needs Oracle's client library); use checktype=connect, or checktype=external with a"
                    + " checkcommand that runs sqlplus");
            default -> throw new IllegalArgumentException(context + " with service " + service + " is not supported");
        };
    }
}
