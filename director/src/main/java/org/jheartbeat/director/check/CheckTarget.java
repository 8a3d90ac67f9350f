package org.jheartbeat.director.check;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * What one check talks to and what it expects, from one virtual service's directives and one
 * real server (as ldirectord's per-virtual {@code checkport}, {@code request}, {@code receive},
 * {@code virtualhost}, {@code login}, {@code passwd}, {@code database}, {@code secret},
 * {@code httpmethod}).
 *
 * @param server       the real server's address and the port to check ({@code checkport} if set,
 *                     else the real server's port)
 * @param request      the request (HTTP path, DNS name, SQL query …), empty for the service default
 * @param receive      what a good answer must match (a Java regex for HTTP, as ldirectord's Perl
 *                     regex), empty for "any answer"
 * @param virtualHost  the HTTP {@code Host:} header, empty for the server's address
 * @param login        the login for services that need one
 * @param password     the password for services that need one
 * @param database     the database name for mysql/pgsql
 * @param secret       the RADIUS secret
 * @param httpMethod   GET or HEAD
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
        String httpMethod) {

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
    }

    /** A target with only an address: the service defaults for everything else. */
    public static CheckTarget of(InetSocketAddress server) {
        return new CheckTarget(server, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), "GET");
    }
}
