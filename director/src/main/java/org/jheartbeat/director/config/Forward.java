package org.jheartbeat.director.config;

import java.util.Optional;

/**
 * A real server's forwarding method: ldirectord's {@code gate}, {@code masq}, {@code ipip}, which
 * ipvsadm sets with {@code -g}, {@code -m}, {@code -i} and lists as {@code Route}, {@code Masq},
 * {@code Tunnel} [ldirectord 4.x {@code real=}; ipvsadm 1.31].
 */
public enum Forward implements IpvsadmWord {
    GATE(new Spellings("gate", "-g", "Route")),
    MASQ(new Spellings("masq", "-m", "Masq")),
    IPIP(new Spellings("ipip", "-i", "Tunnel"));

    private final Spellings spellings;

    Forward(Spellings spellings) {
        this.spellings = spellings;
    }

    @Override
    public Spellings spellings() {
        return spellings;
    }

    /** The method for an ldirectord.cf word, case-insensitive; empty if unknown. */
    public static Optional<Forward> fromConfig(String word) {
        return IpvsadmWord.byConfigName(values(), word);
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
        return IpvsadmWord.byListName(values(), name);
    }
}
