package org.jheartbeat.cli.web;

import static org.jheartbeat.cli.web.Html.esc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;

/**
 * The console's answers to requests, without the transport (the server adapts Netty's requests to
 * {@link Request} and {@link Response} back): login, the views, the confirmation pages and the actions, with the
 * control socket's rule (root and the admin group act, {@code haclient} reads) and a CSRF token on every form
 * that changes something. A forged action (no session, a read-only one, no or a wrong token) is answered 403 and
 * logged. Methods may block (a login's hash, an action's hand-over): the server calls them off its I/O thread.
 */
public final class Console {
    /** The session cookie's name. */
    public static final String COOKIE = "hbweb";

    /** One request: method, path, query and form parameters, the session cookie and the client's address. */
    public record Request(String method, String path, Map<String, List<String>> query, Map<String, List<String>> form,
                          Optional<String> session, String remote) {
        String param(Map<String, List<String>> from, String key) {
            List<String> v = from.get(key);
            return v == null || v.isEmpty() ? "" : v.get(0);
        }
    }

    /**
     * One answer. {@code cookie}: a session id to set, the empty string to clear the cookie, or none; {@code location}:
     * where a 303 sends the browser.
     */
    public record Response(int status, String contentType, byte[] body, Optional<String> cookie, Optional<String> location) {
        static Response html(int status, String html) {
            return new Response(status, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8), Optional.empty(),
                    Optional.empty());
        }

        static Response redirect(String to, Optional<String> cookie) {
            return new Response(303, "text/plain; charset=utf-8", new byte[0], cookie, Optional.of(to));
        }
    }

    /** Sends a control request to the local daemon. */
    public interface Daemon {
        ControlResponse send(ControlRequest r) throws IOException;
    }

    /**
     * What the console needs.
     *
     * @param users      the password file
     * @param adminGroup {@code control: admin_group}
     * @param passwd     {@code /etc/passwd}, where a user's primary group is
     * @param group      {@code /etc/group}
     * @param zone       the zone times are shown in
     */
    public record Settings(Path users, Optional<String> adminGroup, Path passwd, Path group, ZoneId zone) { }

    private final Settings settings;
    private final Sessions sessions;
    private final Supplier<Snapshot> current;
    private final Daemon daemon;
    private final Consumer<String> log;
    private final Runnable changed;

    /**
     * @param current the latest snapshot
     * @param changed called after an action, so the snapshot is taken again at once
     * @param log     one line per login, refusal and action
     */
    public Console(Settings settings, Sessions sessions, Supplier<Snapshot> current, Daemon daemon, Consumer<String> log,
                   Runnable changed) {
        this.settings = settings;
        this.sessions = sessions;
        this.current = current;
        this.daemon = daemon;
        this.log = log;
        this.changed = changed;
    }

    /** The live session of {@code r}, if any. */
    public Optional<Sessions.Session> session(Request r) {
        return r.session().flatMap(sessions::find);
    }

    /** Answers {@code r}. */
    public Response handle(Request r) {
        String p = r.path();
        if (p.equals("/login")) {
            return r.method().equals("POST") ? login(r) : Response.html(200, loginPage(""));
        }
        Optional<Sessions.Session> s = session(r);
        if (r.method().equals("POST")) {
            return post(r, s);
        }
        if (s.isEmpty()) {
            return Response.redirect("/login", Optional.empty());
        }
        boolean fragment = !r.param(r.query(), "fragment").isEmpty();
        Snapshot snap = current.get();
        return switch (p) {
            case "/" -> view(s.get(), "Cluster", p, GlancePage.body(snap, s.get().role() == Roles.Role.ADMIN), fragment);
            case "/timeline" -> view(s.get(), "Timeline", p, TimelinePage.body(snap,
                    TimelinePage.Window.of(r.query(), snap.nowMillis(), settings.zone()), settings.zone()), fragment);
            case "/director" -> view(s.get(), "Director", p, DirectorPage.body(snap), fragment);
            case "/confirm" -> confirm(r, s.get(), snap);
            default -> Response.html(404, Html.page("Not found", p, Optional.of(s.get().describe()),
                    Optional.of(s.get().csrf()), "<p>No such page.</p>"));
        };
    }

    private Response view(Sessions.Session s, String title, String path, String body, boolean fragment) {
        return Response.html(200, fragment ? body : Html.page(title, path, Optional.of(s.describe()), Optional.of(s.csrf()),
                body));
    }

    private Response post(Request r, Optional<Sessions.Session> s) {
        String token = r.param(r.form(), "csrf");
        if (s.isEmpty() || !s.get().csrfMatches(token)) {
            log.accept("web: refused " + r.path() + " " + r.param(r.form(), "action") + " from " + r.remote() + ": "
                    + (s.isEmpty() ? "no session" : (token.isEmpty() ? "no" : "wrong") + " CSRF token (user " + s.get().user() + ")"));
            return Response.html(403, Html.page("Refused", r.path(), Optional.empty(), Optional.empty(),
                    "<p class=\"bad\" id=\"refused\">Refused: this request does not come from a page of this console"
                            + " (no session or a wrong form token). <a href=\"/\">Reload the console</a>.</p>"));
        }
        if (r.path().equals("/logout")) {
            sessions.close(s.get().id());
            return Response.redirect("/login", Optional.of(""));
        }
        if (!r.path().equals("/action")) {
            return Response.html(404, "not found");
        }
        Optional<Actions.Action> a = Actions.Action.of(r.param(r.form(), "action"));
        if (s.get().role() != Roles.Role.ADMIN) {
            log.accept("web: refused " + a.map(Actions.Action::id).orElse("?") + " for read-only user " + s.get().user()
                    + " from " + r.remote());
            return refusedReadOnly(s.get());
        }
        if (a.isEmpty()) {
            return Response.html(400, "unknown action");
        }
        String outcome;
        int code = 200;
        log.accept("web " + s.get().user() + " asked " + a.get().id() + " (" + a.get().request().toWire() + ") from "
                + r.remote());
        try {
            // the daemon's journal then names the user: "web alice via user root ..."
            ControlResponse cr = daemon.send(new ControlRequest.OnBehalf("web:" + s.get().user(), a.get().request()));
            outcome = switch (cr.kind()) {
                case OK -> "Done. " + cr.body().strip();
                case REFUSED -> "Refused by the daemon, nothing changed: " + cr.error();
                default -> "Failed: " + cr.error() + (cr.body().isBlank() ? "" : " " + cr.body().strip());
            };
            code = cr.kind() == ControlResponse.Kind.OK ? 200 : 409;
        } catch (IOException e) {
            outcome = "The daemon could not be asked: " + e.getMessage();
            code = 502;
        }
        log.accept("web " + s.get().user() + ": " + a.get().id() + ": " + outcome.lines().findFirst().orElse(""));
        changed.run();
        return Response.html(code, Html.page(a.get().title(), "/action", Optional.of(s.get().describe()),
                Optional.of(s.get().csrf()), "<h1>" + esc(a.get().title()) + "</h1>\n<pre id=\"outcome\">" + esc(outcome)
                        + "</pre>\n<p><a class=\"button\" id=\"back\" href=\"/\">Back to the cluster</a></p>"));
    }

    private Response refusedReadOnly(Sessions.Session s) {
        return Response.html(403, Html.page("Refused", "/action", Optional.of(s.describe()), Optional.of(s.csrf()),
                "<p class=\"bad\" id=\"refused\">Refused: " + esc(s.user()) + " may look but not act. Actions are for"
                        + " root and the admin group (jheartbeat.yaml control: admin_group).</p>"));
    }

    private Response confirm(Request r, Sessions.Session s, Snapshot snap) {
        if (s.role() != Roles.Role.ADMIN) {
            return refusedReadOnly(s);
        }
        Optional<Actions.Action> a = Actions.Action.of(r.param(r.query(), "action"));
        if (a.isEmpty()) {
            return Response.html(404, "unknown action");
        }
        StringBuilder b = new StringBuilder("<h1>" + esc(a.get().title()) + "?</h1>\n<p>Asked of " + esc(snap.local())
                + "'s daemon as <code>" + esc(a.get().request().toWire()) + "</code>. What will happen:</p>\n<ul id=\"moves\">");
        List<String> what = snap.status().map(st -> Actions.consequences(a.get(), snap.local(), snap.peer(), st))
                .orElse(List.of("unknown: the daemon does not answer (" + snap.statusError() + ")"));
        what.forEach(w -> b.append("<li>").append(esc(w)).append("</li>"));
        b.append("</ul>\n<form method=\"post\" action=\"/action\"><input type=\"hidden\" name=\"action\" value=\"")
                .append(a.get().id()).append("\"><input type=\"hidden\" name=\"csrf\" value=\"").append(esc(s.csrf()))
                .append("\"><button class=\"danger\" id=\"confirm\">").append(esc(a.get().title()))
                .append(" now</button> <a href=\"/\">Cancel</a></form>\n");
        return view(s, a.get().title(), "/confirm", b.toString(), false);
    }

    /** The login page's answer to any refused login (a wrong password, or a right one without a role). */
    static final String WRONG_LOGIN = "Wrong user or password.";

    private Response login(Request r) {
        String user = r.param(r.form(), "user").trim();
        if (!sessions.mayTry(r.remote())) {
            log.accept("web: login of " + user + " from " + r.remote() + " refused: too many failures");
            return Response.html(429, loginPage("Too many failed logins from your address; wait a minute."));
        }
        char[] password = r.param(r.form(), "password").toCharArray();
        boolean ok = WebUsers.validName(user) && WebUsers.verify(settings.users(), user, password);
        java.util.Arrays.fill(password, '\0');
        Optional<Roles.Role> role = ok ? Roles.of(user, settings.adminGroup(), settings.passwd(), settings.group())
                : Optional.empty();
        if (role.isEmpty()) {
            sessions.failed(r.remote());
            log.accept("web: failed login" + (ok ? " (right password, but not root, in the admin group or in haclient)"
                    : "") + " of " + (WebUsers.validName(user) ? user : "?") + " from " + r.remote());
            // the page answers a right password without a role exactly as a wrong one: telling them apart would
            // confirm the password to whoever is guessing; the reason is in the server's log only
            return Response.html(401, loginPage(WRONG_LOGIN));
        }
        Sessions.Session s = sessions.open(user, role.get());
        log.accept("web: " + s.describe() + " logged in from " + r.remote());
        return Response.redirect("/", Optional.of(s.id()));
    }

    private static String loginPage(String message) {
        return Html.page("Log in", "/login", Optional.empty(), Optional.empty(), "<h1>Log in</h1>\n"
                + (message.isEmpty() ? "" : "<p class=\"bad\" id=\"login-error\">" + esc(message) + "</p>\n")
                + "<form class=\"login\" method=\"post\" action=\"/login\"><label>User <input name=\"user\" id=\"user\""
                + " autocomplete=\"username\"></label><label>Password <input type=\"password\" name=\"password\""
                + " id=\"password\" autocomplete=\"current-password\"></label><button id=\"login\">Log in</button></form>\n");
    }
}
