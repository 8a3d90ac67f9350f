package org.jheartbeat.director.check;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code service=http}, {@code https} and {@code http_proxy} negotiate checks, as ldirectord 4.x
 * {@code check_http}: a GET (or HEAD, {@code httpmethod}) of {@code request} (default {@code /})
 * at the real server's check port with {@code Host:} set to {@code virtualhost} (default: the
 * server's address); up when the final answer is 2xx and, if {@code receive} is set, the body
 * contains a match of it (a regex). https accepts any certificate and does not verify the host
 * name, as ldirectord. A request that is an absolute {@code http://}/{@code https://} URL names
 * the URL to fetch; for http_proxy it is required and sent to the real server as a proxy
 * request.
 *
 * <p>Why a raw bounded socket instead of the JDK's {@code HttpClient}: that client treats
 * {@code Host} as a restricted header (settable only through a JVM-wide system property), turns
 * off host name verification only JVM-wide, and its request timeout does not bound reading the
 * body, while this check must bound every step by one deadline and set {@code Host} freely.
 * HTTP/1.1 with {@code Connection: close}; chunked bodies are decoded; the body is read up to
 * {@value #MAX_BODY} bytes. Redirects (3xx with {@code Location}) are followed up to
 * {@value #MAX_REDIRECTS} times, as LWP does, but only to the same real server (a relative URL,
 * the server's address or the virtual host name): a check that followed a redirect to another
 * host would test that host, not this real server, so such a redirect is a failure with the
 * reason. A URL (request or redirect) naming an IP address is fetched from that address, as
 * ldirectord lets a request URL override the real server; host names other than the virtual
 * host are not looked up (a lookup could not be bounded by the check's deadline).
 */
final class HttpCheck extends SocketCheck {
    /** Body bytes read and matched against {@code receive}: 1 MiB. */
    static final int MAX_BODY = 1024 * 1024;
    /** Redirects followed, as LWP's default {@code max_redirect}. */
    static final int MAX_REDIRECTS = 7;
    private static final int MAX_HEADERS = 200;

    /** Which of ldirectord's three HTTP services. */
    enum Kind { HTTP, HTTPS, PROXY }

    private final Kind kind;
    /** {@code checkcafile}: how https answers are trusted. */
    private final CheckTrust trust;

    HttpCheck(Kind kind) {
        this(kind, CheckTrust.ANY);
    }

    HttpCheck(Kind kind, CheckTrust trust) {
        this.kind = kind;
        this.trust = trust;
    }

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        String method = target.httpMethod().toUpperCase(Locale.ROOT);
        if (!method.equals("GET") && !method.equals("HEAD")) {
            throw new CheckFailure("httpmethod " + target.httpMethod() + " is not GET or HEAD");
        }
        Pattern receive = receivePattern(target);
        String serverHost = hostLiteral(target.server());
        String vhost = target.virtualHost().filter(h -> !h.isEmpty()).orElse(serverHost);
        URI url = firstUrl(target, serverHost);
        for (int hop = 0;; hop++) {
            Response response = exchange(target, url, vhost, method, deadline);
            if (response.status / 100 == 3 && response.location != null) {
                if (hop >= MAX_REDIRECTS) {
                    throw new CheckFailure("more than " + MAX_REDIRECTS + " redirects, last to " + response.location);
                }
                url = redirect(url, response.location, serverHost, vhost);
                continue;
            }
            if (response.status / 100 != 2) {
                throw new CheckFailure(method + " " + url + ": " + quote(response.statusLine));
            }
            if (receive != null && !receive.matcher(response.body).find()) {
                throw new CheckFailure(method + " " + url + ": receive \"" + receive.pattern()
                        + "\" not found in the " + response.body.length() + "-byte answer ("
                        + quote(response.statusLine) + ")");
            }
            return;
        }
    }

    private URI firstUrl(CheckTarget target, String serverHost) throws CheckFailure {
        String request = target.request().filter(r -> !r.isEmpty()).orElse("/");
        String lower = request.toLowerCase(Locale.ROOT);
        try {
            if (lower.startsWith("http://") || lower.startsWith("https://")) {
                return new URI(request);
            }
            if (kind == Kind.PROXY) {
                throw new CheckFailure("service=http_proxy needs request to be an absolute http:// URL, not \""
                        + request + "\"");
            }
            String path = request.startsWith("/") ? request : "/" + request;
            String scheme = kind == Kind.HTTPS ? "https" : "http";
            return new URI(scheme + "://" + serverHost + ":" + target.server().getPort() + path);
        } catch (URISyntaxException e) {
            throw new CheckFailure("request \"" + request + "\" is not a valid URL path: " + e.getReason());
        }
    }

    private static URI redirect(URI from, String location, String serverHost, String vhost) throws CheckFailure {
        URI next;
        try {
            next = from.resolve(new URI(location.strip()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new CheckFailure("redirect to an invalid Location \"" + quote(location) + "\"");
        }
        String host = next.getHost();
        if (host == null || !(host.equalsIgnoreCase(stripBrackets(serverHost)) || host.equalsIgnoreCase(serverHost)
                || host.equalsIgnoreCase(vhost) || host.equalsIgnoreCase(from.getHost())
                || Tls.isAddressLiteral(stripBrackets(host)))) {
            throw new CheckFailure("redirected to another host: " + next
                    + " (not followed: the check must reach this real server, and must not wait on DNS)");
        }
        String scheme = next.getScheme() == null ? "" : next.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new CheckFailure("redirected to a non-HTTP URL: " + next);
        }
        return next;
    }

    private Response exchange(CheckTarget target, URI url, String vhost, String method, Deadline deadline)
            throws IOException, CheckFailure {
        boolean tls;
        InetSocketAddress connectTo;
        String requestTarget;
        String hostHeader;
        if (kind == Kind.PROXY) {
            tls = false;
            connectTo = target.server();
            requestTarget = url.toASCIIString();
            hostHeader = url.getRawAuthority();
        } else {
            tls = "https".equalsIgnoreCase(url.getScheme());
            int port = url.getPort() >= 0 ? url.getPort() : (tls ? 443 : 80);
            boolean sameServer = url.getHost() == null
                    || stripBrackets(url.getHost()).equalsIgnoreCase(stripBrackets(hostLiteral(target.server())))
                    || url.getHost().equalsIgnoreCase(vhost);
            // a URL naming the virtual host (or the server) is fetched from this real server
            if (sameServer) {
                connectTo = new InetSocketAddress(target.server().getAddress(), port);
            } else if (Tls.isAddressLiteral(stripBrackets(url.getHost()))) {
                // ldirectord: a request URL naming an address overrides the real server's
                connectTo = new InetSocketAddress(java.net.InetAddress.getByName(stripBrackets(url.getHost())), port);
            } else {
                connectTo = unresolvedRefused(url);
            }
            String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
            requestTarget = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
            hostHeader = vhost;
        }
        String request = method + " " + requestTarget + " HTTP/1.1\r\n"
                + "Host: " + hostHeader + "\r\n"
                + "User-Agent: jheartbeat-director\r\n"
                + "Accept: */*\r\n"
                + "Connection: close\r\n\r\n";
        try (Conversation c = tls ? trust.open(connectTo, deadline, vhost)
                : Conversation.open(connectTo, deadline, false, vhost)) {
            c.send(request);
            return read(c, method.equals("HEAD"));
        }
    }

    private static InetSocketAddress unresolvedRefused(URI url) throws CheckFailure {
        throw new CheckFailure("URL " + url + " names a host other than this real server or the virtualhost"
                + " (not looked up: a check must not wait on DNS)");
    }

    private static Response read(Conversation c, boolean head) throws IOException, CheckFailure {
        String statusLine;
        int status;
        while (true) {
            statusLine = c.readLine();
            status = parseStatus(statusLine);
            if (status / 100 != 1) {
                break;
            }
            skipHeaders(c); // 100 Continue and friends: the real answer follows
        }
        long contentLength = -1;
        boolean chunked = false;
        String location = null;
        for (int i = 0;; i++) {
            if (i > MAX_HEADERS) {
                throw new CheckFailure("more than " + MAX_HEADERS + " header lines in the answer");
            }
            String line = c.readLine();
            if (line.isEmpty()) {
                break;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            switch (name) {
                case "content-length" -> {
                    try {
                        contentLength = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        throw new CheckFailure("bad Content-Length \"" + quote(value) + "\"");
                    }
                }
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "location" -> location = value;
                default -> {
                }
            }
        }
        String body = "";
        if (!head && status != 204 && status != 304) {
            byte[] bytes;
            if (chunked) {
                bytes = readChunked(c);
            } else if (contentLength >= 0) {
                bytes = c.readExactly((int) Math.min(contentLength, MAX_BODY));
            } else {
                bytes = c.readToEnd(MAX_BODY);
            }
            body = new String(bytes, StandardCharsets.ISO_8859_1);
        }
        return new Response(statusLine, status, location, body);
    }

    private static void skipHeaders(Conversation c) throws IOException, CheckFailure {
        for (int i = 0; i <= MAX_HEADERS; i++) {
            if (c.readLine().isEmpty()) {
                return;
            }
        }
        throw new CheckFailure("more than " + MAX_HEADERS + " header lines in the answer");
    }

    private static byte[] readChunked(Conversation c) throws IOException, CheckFailure {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (body.size() < MAX_BODY) {
            String sizeLine = c.readLine();
            int semicolon = sizeLine.indexOf(';');
            String hex = (semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).strip();
            long size;
            try {
                size = Long.parseLong(hex, 16);
            } catch (NumberFormatException e) {
                throw new CheckFailure("bad chunk size \"" + quote(sizeLine) + "\" in a chunked answer");
            }
            if (size == 0) {
                break;
            }
            int take = (int) Math.min(size, MAX_BODY - body.size());
            body.write(c.readExactly(take));
            if (take < size) {
                break;
            }
            c.readLine(); // CRLF after the chunk
        }
        return body.toByteArray();
    }

    static int parseStatus(String statusLine) throws CheckFailure {
        // HTTP/1.1 200 OK
        if (!statusLine.startsWith("HTTP/")) {
            throw new CheckFailure("not an HTTP answer: \"" + quote(statusLine) + "\"");
        }
        int space = statusLine.indexOf(' ');
        if (space < 0 || statusLine.length() < space + 4) {
            throw new CheckFailure("bad HTTP status line \"" + quote(statusLine) + "\"");
        }
        String code = statusLine.substring(space + 1, space + 4);
        if (!code.chars().allMatch(Character::isDigit)) {
            throw new CheckFailure("bad HTTP status line \"" + quote(statusLine) + "\"");
        }
        return Integer.parseInt(code);
    }

    static String hostLiteral(InetSocketAddress server) {
        String host = server.getAddress() != null ? server.getAddress().getHostAddress() : server.getHostString();
        int percent = host.indexOf('%');
        if (percent >= 0) {
            host = host.substring(0, percent);
        }
        return host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private record Response(String statusLine, int status, String location, String body) {
    }
}
