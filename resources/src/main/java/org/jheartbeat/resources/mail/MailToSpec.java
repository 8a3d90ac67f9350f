package org.jheartbeat.resources.mail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jheartbeat.resources.ResourceAgentException;

/**
 * What a {@code MailTo} resource says: its recipients and its subject. Heartbeat's form
 * {@code MailTo::ADDRESS[,ADDRESS...][::SUBJECT]} and the OCF form {@code ocf:heartbeat:MailTo::email=...::subject=...}
 * (resource-agents' parameters) read the same: addresses separated by commas, blanks or tabs, each
 * {@code user@domain} or a local user name; no subject: {@code Resource Group}, as resource-agents' agent.
 *
 * @param recipients the addresses, at least one
 * @param subject    the subject's first words
 */
public record MailToSpec(List<String> recipients, String subject) {
    /** The Heartbeat resource name. */
    public static final String NAME = "MailTo";
    /** The subject's first words when none is given. */
    public static final String DEFAULT_SUBJECT = "Resource Group";
    private static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9._%+=-]+(@[A-Za-z0-9.-]+)?");

    public MailToSpec {
        recipients = List.copyOf(recipients);
    }

    /**
     * Heartbeat's positional arguments.
     *
     * @param args  ADDRESSES, then optionally SUBJECT
     * @param token the haresources token, for messages
     * @throws ResourceAgentException when no address or a malformed one is given, or more than two arguments
     */
    public static MailToSpec parse(List<String> args, String token) {
        if (args.isEmpty() || args.size() > 2) {
            throw new ResourceAgentException(usage(token));
        }
        return of(args.get(0), args.size() > 1 ? Optional.of(args.get(1)) : Optional.empty(), token);
    }

    /** The OCF form's parameters {@code email} (required) and {@code subject}. */
    public static MailToSpec ofOcf(Map<String, String> params, String token) {
        String email = params.get("email");
        if (email == null) {
            throw new ResourceAgentException(usage(token));
        }
        return of(email, Optional.ofNullable(params.get("subject")), token);
    }

    private static MailToSpec of(String emails, Optional<String> subject, String token) {
        List<String> to = new ArrayList<>();
        for (String a : emails.trim().split("[,\\s]+")) {
            if (a.isEmpty()) {
                continue;
            }
            if (!ADDRESS.matcher(a).matches()) {
                throw new ResourceAgentException("MailTo: [" + a + "] in [" + token + "] is not a mail address;"
                        + " write user@example.com or a local user name such as root");
            }
            to.add(a);
        }
        if (to.isEmpty()) {
            throw new ResourceAgentException(usage(token));
        }
        // a subject is one header line: line breaks would start other headers
        String s = subject.map(x -> x.replaceAll("[\\x00-\\x1f\\x7f]+", " ").trim()).filter(x -> !x.isEmpty())
                .orElse(DEFAULT_SUBJECT);
        return new MailToSpec(to, s);
    }

    /** The message for arguments {@link #parse} refuses, naming the token. */
    public static String usage(String token) {
        return "MailTo takes ADDRESS[,ADDRESS...][::SUBJECT], [" + token + "] does not; write e.g."
                + " MailTo::root::WebServer or MailTo::ops@example.com,root";
    }
}
