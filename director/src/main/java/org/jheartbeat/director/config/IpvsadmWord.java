package org.jheartbeat.director.config;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * A word that ldirectord.cf, ipvsadm's options and {@code ipvsadm -L -n} each spell their own way
 * ({@link Protocol}, {@link Forward}): the three spellings and the look-ups by them, in one place.
 */
public interface IpvsadmWord {

    /** The three spellings of one word. */
    record Spellings(String configName, String ipvsadmOption, String listName) {
    }

    /** This word's spellings. */
    Spellings spellings();

    /** The word in ldirectord.cf (lower case). */
    default String configName() {
        return spellings().configName();
    }

    /** ipvsadm's short option for it. */
    default String ipvsadmOption() {
        return spellings().ipvsadmOption();
    }

    /** Its column text in {@code ipvsadm -L -n}. */
    default String listName() {
        return spellings().listName();
    }

    /** The one of {@code values} whose ldirectord.cf word is {@code word}, case-insensitive; empty if none. */
    static <W extends IpvsadmWord> Optional<W> byConfigName(W[] values, String word) {
        return by(values, IpvsadmWord::configName, word.toLowerCase(Locale.ROOT));
    }

    /** The one of {@code values} with ipvsadm's short option {@code option}; empty if none. */
    static <W extends IpvsadmWord> Optional<W> byIpvsadmOption(W[] values, String option) {
        return by(values, IpvsadmWord::ipvsadmOption, option);
    }

    /** The one of {@code values} listed as {@code name} by {@code ipvsadm -L -n}; empty if none. */
    static <W extends IpvsadmWord> Optional<W> byListName(W[] values, String name) {
        return by(values, IpvsadmWord::listName, name);
    }

    private static <W extends IpvsadmWord> Optional<W> by(W[] values, Function<IpvsadmWord, String> spelling,
                                                          String text) {
        for (W w : values) {
            if (spelling.apply(w).equals(text)) {
                return Optional.of(w);
            }
        }
        return Optional.empty();
    }
}
