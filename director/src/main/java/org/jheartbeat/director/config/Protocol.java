package org.jheartbeat.director.config;

import java.util.Optional;

/**
 * A virtual service's protocol, as ldirectord's {@code protocol} directive spells it and as
 * {@code ipvsadm} selects it ({@code -t}, {@code -u}, {@code -f}) and lists it ({@code TCP},
 * {@code UDP}, {@code FWM}) [ldirectord 4.x; ipvsadm 1.31 man page].
 */
public enum Protocol implements IpvsadmWord {
    TCP(new Spellings("tcp", "-t", "TCP")),
    UDP(new Spellings("udp", "-u", "UDP")),
    FWM(new Spellings("fwm", "-f", "FWM"));

    private final Spellings spellings;

    Protocol(Spellings spellings) {
        this.spellings = spellings;
    }

    @Override
    public Spellings spellings() {
        return spellings;
    }

    /** The protocol for an ldirectord.cf word, case-insensitive; empty if unknown. */
    public static Optional<Protocol> fromConfig(String word) {
        return IpvsadmWord.byConfigName(values(), word);
    }

    /** The protocol for ipvsadm's service option; empty if it is not one. */
    public static Optional<Protocol> fromIpvsadmOption(String option) {
        Optional<Protocol> shortForm = IpvsadmWord.byIpvsadmOption(values(), option);
        if (shortForm.isPresent()) {
            return shortForm;
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
        return IpvsadmWord.byListName(values(), name);
    }
}
