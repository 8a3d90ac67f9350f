package org.jheartbeat.director.config;

import java.util.Locale;
import java.util.Optional;

/**
 * A real server's forwarding method: ldirectord's {@code gate}, {@code masq}, {@code ipip}, which
 * ipvsadm sets with {@code -g}, {@code -m}, {@code -i} and lists as {@code Route}, {@code Masq},
 * {@code Tunnel} [ldirectord 4.x {@code real=}; ipvsadm 1.31].
 */
public enum Forward {
    GATE("gate", "-g", "Route"),
    MASQ("masq", "-m", "Masq"),
    IPIP("ipip", "-i", "Tunnel");

    private final String configName;
    private final String ipvsadmOption;
    private final String listName;

    Forward(String configName, String ipvsadmOption, String listName) {
        this.configName = configName;
        this.ipvsadmOption = ipvsadmOption;
        this.listName = listName;
    }

    /** The word in ldirectord.cf. */
    public String configName() {
        return configName;
    }

    /** ipvsadm's option for this method. */
    public String ipvsadmOption() {
        return ipvsadmOption;
    }

    /** The Forward column of {@code ipvsadm -L -n}. */
    public String listName() {
        return listName;
    }

    /** The method for an ldirectord.cf word, case-insensitive; empty if unknown. */
    public static Optional<Forward> fromConfig(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        for (Forward f : values()) {
            if (f.configName.equals(w)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** The method for an ipvsadm option ({@code -g}/{@code --gatewaying} …); empty if not one. */
    public static Optional<Forward> fromIpvsadmOption(String option) {
        return switch (option) {
            case "-g", "--gatewaying" -> Optional.of(GATE);
            case "-m", "--masquerading" -> Optional.of(MASQ);
            case "-i", "--ipip" -> Optional.of(IPIP);
            default -> Optional.empty();
        };
    }

    /**
     * The method for a {@code -L -n} Forward column; {@code Local} (a real on the director itself,
     * which the kernel forces) reads as {@link #GATE}, as {@code ipvsadm -S} saves it.
     */
    public static Optional<Forward> fromListName(String name) {
        if ("Local".equals(name)) {
            return Optional.of(GATE);
        }
        for (Forward f : values()) {
            if (f.listName.equals(name)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
