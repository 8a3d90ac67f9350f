package org.jheartbeat.director.config;

import java.util.Locale;
import java.util.Optional;

/**
 * A virtual service's protocol, as ldirectord's {@code protocol} directive spells it and as
 * {@code ipvsadm} selects it ({@code -t}, {@code -u}, {@code -f}) and lists it ({@code TCP},
 * {@code UDP}, {@code FWM}) [ldirectord 4.x; ipvsadm 1.31 man page].
 */
public enum Protocol {
    TCP("tcp", "-t", "TCP"),
    UDP("udp", "-u", "UDP"),
    FWM("fwm", "-f", "FWM");

    private final String configName;
    private final String ipvsadmOption;
    private final String listName;

    Protocol(String configName, String ipvsadmOption, String listName) {
        this.configName = configName;
        this.ipvsadmOption = ipvsadmOption;
        this.listName = listName;
    }

    /** The word in ldirectord.cf ({@code tcp}, {@code udp}, {@code fwm}). */
    public String configName() {
        return configName;
    }

    /** ipvsadm's service option ({@code -t}, {@code -u}, {@code -f}). */
    public String ipvsadmOption() {
        return ipvsadmOption;
    }

    /** The protocol column of {@code ipvsadm -L -n} ({@code TCP}, {@code UDP}, {@code FWM}). */
    public String listName() {
        return listName;
    }

    /** The protocol for an ldirectord.cf word, case-insensitive; empty if unknown. */
    public static Optional<Protocol> fromConfig(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        for (Protocol p : values()) {
            if (p.configName.equals(w)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The protocol for ipvsadm's service option; empty if it is not one. */
    public static Optional<Protocol> fromIpvsadmOption(String option) {
        for (Protocol p : values()) {
            if (p.ipvsadmOption.equals(option)) {
                return Optional.of(p);
            }
        }
        return switch (option) {
            case "--tcp-service" -> Optional.of(TCP);
            case "--udp-service" -> Optional.of(UDP);
            case "--fwmark-service" -> Optional.of(FWM);
            default -> Optional.empty();
        };
    }

    /** The protocol for a {@code -L -n} protocol column; empty if it is not one. */
    public static Optional<Protocol> fromListName(String name) {
        for (Protocol p : values()) {
            if (p.listName.equals(name)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
