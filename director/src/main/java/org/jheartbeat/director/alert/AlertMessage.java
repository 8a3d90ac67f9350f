package org.jheartbeat.director.alert;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The text of one alert, with the facts of ldirectord 4.x's alert mails: headers From
 * ({@code emailalertfrom}, else {@code USER@HOST}), To (the {@code emailalert} addresses), Subject
 * (the log line, {@code [servicename]} in front if set); a body of {@code ldirectord host: HOST},
 * {@code Log-Message: LINE}, {@code Daemon-Status: STATE} and, after a blank line, the
 * {@code Service name:} and {@code Comment:} lines if set. Added here: a Date header (the time of
 * sending) and a plain-text UTF-8 content type. Lines end in {@code \n}; the transports convert.
 */
public final class AlertMessage {
    private AlertMessage() {
    }

    /**
     * @param mail          what the kernel decided to send
     * @param hostName      the director's host name (the body's {@code ldirectord host})
     * @param defaultFrom   the From when {@code emailalertfrom} is not set ({@code USER@HOST})
     * @param date          the Date header's time
     * @return the message: headers, a blank line, the body
     */
    public static String format(Alert mail, String hostName, String defaultFrom, ZonedDateTime date) {
        List<String> lines = new ArrayList<>();
        lines.add("From: " + mail.from().orElse(defaultFrom));
        lines.add("To: " + String.join(", ", mail.to()));
        lines.add("Subject: " + mail.subject());
        lines.add("Date: " + DateTimeFormatter.RFC_1123_DATE_TIME.format(date));
        lines.add("MIME-Version: 1.0");
        lines.add("Content-Type: text/plain; charset=UTF-8");
        lines.add("");
        lines.add("ldirectord host: " + hostName);
        lines.add("Log-Message: " + mail.subject());
        lines.add("Daemon-Status: " + mail.status().word());
        if (!mail.details().isEmpty()) {
            lines.add("");
            lines.addAll(mail.details());
        }
        return String.join("\n", lines) + "\n";
    }
}
