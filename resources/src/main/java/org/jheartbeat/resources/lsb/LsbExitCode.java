package org.jheartbeat.resources.lsb;

import java.util.Arrays;
import java.util.Optional;

/**
 * Exit codes of an LSB init script's actions other than {@code status} (LSB Core 3.0+, "Init
 * Script Actions"): 0 success, 1 generic or unspecified error, 2 invalid arguments, 3
 * unimplemented feature, 4 insufficient privilege, 5 program not installed, 6 program not
 * configured, 7 program is not running. A start of a running service and a stop of a stopped one
 * must exit 0 (the same section), which Pacemaker's {@code lsb} class relies on.
 */
public enum LsbExitCode {
    SUCCESS(0, "success"),
    GENERIC_ERROR(1, "generic or unspecified error"),
    INVALID_ARGUMENT(2, "invalid or excess argument(s)"),
    UNIMPLEMENTED(3, "unimplemented feature"),
    INSUFFICIENT_PRIVILEGE(4, "user had insufficient privilege"),
    NOT_INSTALLED(5, "program is not installed"),
    NOT_CONFIGURED(6, "program is not configured"),
    NOT_RUNNING(7, "program is not running");

    private final int code;
    private final String meaning;

    LsbExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** @return the exit status */
    public int code() {
        return code;
    }

    /** @return the LSB's wording */
    public String meaning() {
        return meaning;
    }

    /**
     * @param code an exit status
     * @return its constant, or empty for 8..255 (reserved; treated as a failure by callers)
     */
    public static Optional<LsbExitCode> of(int code) {
        return Arrays.stream(values()).filter(c -> c.code == code).findFirst();
    }

    /** @param code an exit status @return {@code "rc=N (meaning)"} for log lines */
    public static String describe(int code) {
        return "rc=" + code + of(code).map(c -> " (" + c.meaning + ")").orElse(" (reserved code: failure)");
    }
}
