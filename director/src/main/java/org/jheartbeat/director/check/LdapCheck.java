package org.jheartbeat.director.check;

import java.time.Duration;
import java.util.Hashtable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import javax.naming.Context;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.InitialDirContext;
import javax.naming.directory.SearchControls;
import javax.naming.directory.SearchResult;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * {@code service=ldap} (and {@code ldaps}) negotiate checks, as ldirectord 4.x {@code check_ldap},
 * through the JDK's JNDI LDAP provider: a simple bind with {@code login}/{@code passwd} when both
 * are set (else anonymous), then a base-scope search of {@code request} (the base DN, without
 * ldirectord's leading {@code /}) with filter {@code (objectClass=*)}; up when exactly one entry
 * comes back and its DN contains a match of {@code receive} (a regex; empty matches any DN).
 *
 * <p>ldaps talks TLS with any certificate accepted, or with {@code checkcafile} only a trusted one naming
 * {@code virtualhost} when that is a DNS name ({@link CheckTrust}), checked in the handshake before the bind.
 * (ldirectord 4.x lists ldaps but has no check
 * for it and reports such servers up without contacting them; here they are checked.)
 *
 * <p>Bounds: JNDI's connect and read timeouts are set to the time left, and the whole exchange
 * runs on a daemon worker thread that the check waits for only until the deadline, so no step of
 * the provider (TLS handshake, referral, unbind) can stretch the check.
 */
final class LdapCheck implements HealthCheck {
    private static final ExecutorService WORKERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ldap-check");
        t.setDaemon(true);
        return t;
    });

    private final boolean tls;
    private final CheckTrust trust;
    private final MonotonicClock clock;

    LdapCheck(boolean tls) {
        this(tls, CheckTrust.ANY);
    }

    /** @param trust how ldaps trusts the server ({@code checkcafile}); unused without TLS */
    LdapCheck(boolean tls, CheckTrust trust) {
        this(tls, trust, MonotonicClock.system());
    }

    /** @param clock where the check's deadline and elapsed time are read */
    LdapCheck(boolean tls, CheckTrust trust, MonotonicClock clock) {
        this.tls = tls;
        this.trust = trust;
        this.clock = clock;
    }

    @Override
    public CheckResult check(CheckTarget target, Duration timeout) throws InterruptedException {
        long start = clock.nanoTime();
        Deadline deadline = Deadline.in(timeout, clock);
        Future<String> outcome = WORKERS.submit(() -> probe(target, deadline));
        try {
            String failure = outcome.get(Math.max(1, deadline.remainingMillis()), TimeUnit.MILLISECONDS);
            return failure == null ? CheckResult.up(SocketCheck.elapsed(clock, start))
                    : CheckResult.down(failure, SocketCheck.elapsed(clock, start));
        } catch (TimeoutException e) {
            outcome.cancel(true);
            return CheckResult.down(deadline.expiredMessage(), SocketCheck.elapsed(clock, start));
        } catch (ExecutionException e) {
            return CheckResult.down("LDAP check failed: " + SocketCheck.reason(e.getCause()),
                    SocketCheck.elapsed(clock, start));
        } catch (InterruptedException e) {
            outcome.cancel(true);
            throw e;
        }
    }

    /** The reason of failure, or {@code null} when up. */
    private String probe(CheckTarget target, Deadline deadline) {
        Pattern receive;
        try {
            receive = SocketCheck.receivePattern(target);
        } catch (CheckFailure e) {
            return e.getMessage();
        }
        String base = SocketCheck.requestWithoutSlash(target);
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, (tls ? "ldaps://" : "ldap://") + HttpCheck.hostLiteral(target.server())
                + ":" + target.server().getPort() + "/");
        String millis = Long.toString(Math.max(1, deadline.remainingMillis()));
        env.put("com.sun.jndi.ldap.connect.timeout", millis);
        env.put("com.sun.jndi.ldap.read.timeout", millis);
        env.put("com.sun.jndi.ldap.connect.pool", "false");
        env.put(Context.REFERRAL, "ignore");
        if (tls) {
            env.put("java.naming.ldap.factory.socket", LdapsSocketFactory.class.getName());
        }
        String login = target.login().orElse("");
        String password = target.password().orElse("");
        if (!login.isEmpty() && !password.isEmpty()) {
            env.put(Context.SECURITY_AUTHENTICATION, "simple");
            env.put(Context.SECURITY_PRINCIPAL, login);
            env.put(Context.SECURITY_CREDENTIALS, password);
        } else {
            env.put(Context.SECURITY_AUTHENTICATION, "none");
        }
        InitialDirContext context = null;
        try {
            javax.net.ssl.SSLSocketFactory factory;
            try {
                factory = trust.factory().orElse(Tls.factory());
            } catch (java.io.IOException e) {
                return "checkcafile: " + SocketCheck.reason(e);
            }
            context = tls ? connect(env, factory, CheckTrust.serverName(target)) : new InitialDirContext(env);
            SearchControls controls = new SearchControls();
            controls.setSearchScope(SearchControls.OBJECT_SCOPE);
            controls.setCountLimit(2);
            controls.setTimeLimit((int) Math.min(Integer.MAX_VALUE, Math.max(1, deadline.remainingMillis())));
            controls.setReturningAttributes(new String[0]);
            NamingEnumeration<SearchResult> results = context.search(base, "(objectClass=*)", controls);
            int count = 0;
            String dn = "";
            try {
                while (results.hasMore() && count < 2) {
                    dn = results.next().getNameInNamespace();
                    count++;
                }
            } finally {
                results.close();
            }
            if (count != 1) {
                return "LDAP search of \"" + base + "\" gave " + count + " entries, not 1";
            }
            if (receive != null && !receive.matcher(dn).find()) {
                return "LDAP entry DN \"" + dn + "\" does not match receive \"" + receive.pattern() + "\"";
            }
            return null;
        } catch (javax.naming.AuthenticationException e) {
            return "LDAP bind as " + (login.isEmpty() ? "anonymous" : login) + " refused: " + SocketCheck.reason(e);
        } catch (NamingException e) {
            Throwable root = e.getRootCause() != null ? e.getRootCause() : e;
            return trust.rejection(root).orElse("LDAP: " + SocketCheck.reason(root));
        } catch (RuntimeException e) {
            return "LDAP: bad answer (" + SocketCheck.reason(e) + ")";
        } finally {
            if (context != null) {
                try {
                    context.close();
                } catch (NamingException e) {
                    // closing after the check: nothing to report
                }
            }
        }
    }

    /** Opens the ldaps connection (handshake included, before the bind) with sockets of {@code factory}. */
    private static InitialDirContext connect(Hashtable<String, Object> env, javax.net.ssl.SSLSocketFactory factory,
                                             String serverName) throws NamingException {
        try {
            return LdapsSocketFactory.using(factory, serverName, () -> new InitialDirContext(env));
        } catch (NamingException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
