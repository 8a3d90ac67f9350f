package org.jheartbeat.director.check;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What one check talks to and what it expects, from one virtual service's directives and one
 * real server (as ldirectord's per-virtual {@code checkport}, {@code request}, {@code receive},
 * {@code virtualhost}, {@code login}, {@code passwd}, {@code database}, {@code secret},
 * {@code httpmethod}, {@code protocol}, {@code checkcommand}, {@code checkcount}).
 *
 * @param server       the real server's address and the port to check ({@code checkport} if set,
 *                     else the real server's port)
 * @param request      the request (HTTP path, DNS name, SQL query …) as written in the file (a
 *                     leading {@code /}, which ldirectord adds, is optional), empty for the
 *                     service default
 * @param receive      what a good answer must match (a Java regex for HTTP, as ldirectord's Perl
 *                     regex), empty for "any answer"
 * @param virtualHost  the HTTP {@code Host:} header, empty for the server's address
 * @param login        the login for services that need one
 * @param password     the password for services that need one
 * @param database     the database name for mysql/pgsql
 * @param secret       the RADIUS secret
 * @param httpMethod   GET or HEAD
 * @param protocol     the virtual service's {@code protocol}: {@code tcp}, {@code udp} or
 *                     {@code fwm} (a connect check of a udp service is a ping, a dns check uses
 *                     TCP only for tcp, a sip check uses UDP unless tcp, as ldirectord)
 * @param virtualService the virtual address (or the firewall mark, as a number) passed to an
 *                     external {@code checkcommand} as its first argument
 * @param virtualPort  the virtual port, the command's second argument (0 for fwmark services)
 * @param realPort     the real server's configured port, the command's fourth argument (the check
 *                     itself uses {@code server}'s port)
 * @param checkCommand the external check's program ({@code checkcommand}), empty for
 *                     {@code /bin/true} as ldirectord
 * @param checkCount   how many ping attempts a ping check makes ({@code checkcount}, 1 or more)
 */
public record CheckTarget(
        InetSocketAddress server,
        Optional<String> request,
        Optional<String> receive,
        Optional<String> virtualHost,
        Optional<String> login,
        Optional<String> password,
        Optional<String> database,
        Optional<String> secret,
        String httpMethod,
        String protocol,
        String virtualService,
        int virtualPort,
        int realPort,
        Optional<String> checkCommand,
        int checkCount) {

    public CheckTarget {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(receive, "receive");
        Objects.requireNonNull(virtualHost, "virtualHost");
        Objects.requireNonNull(login, "login");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(httpMethod, "httpMethod");
        protocol = Objects.requireNonNull(protocol, "protocol").toLowerCase(Locale.ROOT);
        Objects.requireNonNull(virtualService, "virtualService");
        Objects.requireNonNull(checkCommand, "checkCommand");
        if (checkCount < 1) {
            throw new IllegalArgumentException("checkCount must be at least 1: " + checkCount);
        }
    }

    /**
     * The original nine-part form: protocol tcp, the server as its own virtual service (for an
     * external command's arguments), no check command, one ping attempt.
     */
    public CheckTarget(InetSocketAddress server, Optional<String> request, Optional<String> receive,
            Optional<String> virtualHost, Optional<String> login, Optional<String> password,
            Optional<String> database, Optional<String> secret, String httpMethod) {
        this(server, request, receive, virtualHost, login, password, database, secret, httpMethod,
                "tcp", server.getHostString(), server.getPort(), server.getPort(), Optional.empty(), 1);
    }

    /** A target with only an address: the service defaults for everything else. */
    public static CheckTarget of(InetSocketAddress server) {
        return new CheckTarget(server, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), "GET");
    }

    /** This target with {@code request} (ldirectord's {@code request}). */
    public CheckTarget withRequest(String value) {
        return new CheckTarget(server, Optional.of(value), receive, virtualHost, login, password, database,
                secret, httpMethod, protocol, virtualService, virtualPort, realPort, checkCommand, checkCount);
    }

    /** This target with {@code receive} (ldirectord's {@code receive}). */
    public CheckTarget withReceive(String value) {
        return new CheckTarget(server, request, Optional.of(value), virtualHost, login, password, database,
                secret, httpMethod, protocol, virtualService, virtualPort, realPort, checkCommand, checkCount);
    }

    /** This target with {@code virtualhost}. */
    public CheckTarget withVirtualHost(String value) {
        return new CheckTarget(server, request, receive, Optional.of(value), login, password, database,
                secret, httpMethod, protocol, virtualService, virtualPort, realPort, checkCommand, checkCount);
    }

    /** This target with {@code login} and {@code passwd}. */
    public CheckTarget withLogin(String user, String pass) {
        return new CheckTarget(server, request, receive, virtualHost, Optional.of(user), Optional.of(pass),
                database, secret, httpMethod, protocol, virtualService, virtualPort, realPort, checkCommand,
                checkCount);
    }

    /** This target with {@code database}. */
    public CheckTarget withDatabase(String value) {
        return new CheckTarget(server, request, receive, virtualHost, login, password, Optional.of(value),
                secret, httpMethod, protocol, virtualService, virtualPort, realPort, checkCommand, checkCount);
    }

    /** This target with the RADIUS {@code secret}. */
    public CheckTarget withSecret(String value) {
        return new CheckTarget(server, request, receive, virtualHost, login, password, database,
                Optional.of(value), httpMethod, protocol, virtualService, virtualPort, realPort, checkCommand,
                checkCount);
    }

    /** This target with {@code httpmethod} (GET or HEAD). */
    public CheckTarget withHttpMethod(String value) {
        return new CheckTarget(server, request, receive, virtualHost, login, password, database, secret,
                value, protocol, virtualService, virtualPort, realPort, checkCommand, checkCount);
    }

    /** This target with the virtual service's {@code protocol} (tcp, udp, fwm). */
    public CheckTarget withProtocol(String value) {
        return new CheckTarget(server, request, receive, virtualHost, login, password, database, secret,
                httpMethod, value, virtualService, virtualPort, realPort, checkCommand, checkCount);
    }

    /**
     * This target with the virtual service and real port an external check command is given.
     *
     * @param vip   the virtual address, or the firewall mark as a number
     * @param vport the virtual port (0 for fwmark)
     * @param rport the real server's configured port
     */
    public CheckTarget withExternalArguments(String vip, int vport, int rport) {
        return new CheckTarget(server, request, receive, virtualHost, login, password, database, secret,
                httpMethod, protocol, vip, vport, rport, checkCommand, checkCount);
    }

    /** This target with {@code checkcommand}. */
    public CheckTarget withCheckCommand(String value) {
        return new CheckTarget(server, request, receive, virtualHost, login, password, database, secret,
                httpMethod, protocol, virtualService, virtualPort, realPort, Optional.of(value), checkCount);
    }

    /** This target with {@code checkcount} (ping attempts, 1 or more). */
    public CheckTarget withCheckCount(int value) {
        return new CheckTarget(server, request, receive, virtualHost, login, password, database, secret,
                httpMethod, protocol, virtualService, virtualPort, realPort, checkCommand, value);
    }
}
