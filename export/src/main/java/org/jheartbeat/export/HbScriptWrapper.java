package org.jheartbeat.export;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The OCF resource agent {@code ocf:jheartbeat:hb-script} that lets Pacemaker run a Heartbeat
 * {@code resource.d} script: Pacemaker 2 removed the {@code heartbeat} class (Pacemaker Explained
 * 2.1, "Upgrading"), and its {@code lsb} class passes no arguments and reads {@code status} by exit
 * code, while a Heartbeat script takes its {@code ::} arguments before the action and reports its
 * status as text (Heartbeat 3.0.6 {@code ResourceManager}: "not running" means stopped, "running"
 * or "OK" running). The agent (a shell script, resource {@code hb-script.sh} next to this class)
 * maps OCF {@code start}/{@code stop}/{@code monitor} onto {@code SCRIPT ARGS start|stop|status}
 * with that text rule, and answers {@code meta-data} and {@code validate-all}.
 */
public final class HbScriptWrapper {
    private HbScriptWrapper() {
    }

    /** @return the agent's text */
    public static String text() {
        try (InputStream s = HbScriptWrapper.class.getResourceAsStream("hb-script.sh")) {
            if (s == null) {
                throw new IllegalStateException("hb-script.sh missing from the jar");
            }
            return new String(s.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
