package org.jheartbeat.resources.ocf;

import java.util.Arrays;
import java.util.Optional;

/**
 * The OCF resource-agent API 1.0 return codes ({@code ocf-returncodes} of Debian's
 * resource-agents 4.12; Pacemaker Explained, "OCF Return Codes"), with how Pacemaker classifies
 * each failure (soft: recover here; hard: not on this node; fatal: nowhere).
 */
public enum OcfExitCode {
    SUCCESS(0, "OCF_SUCCESS", "success"),
    ERR_GENERIC(1, "OCF_ERR_GENERIC", "generic error (soft)"),
    ERR_ARGS(2, "OCF_ERR_ARGS", "invalid arguments for this node (hard)"),
    ERR_UNIMPLEMENTED(3, "OCF_ERR_UNIMPLEMENTED", "action not implemented (hard)"),
    ERR_PERM(4, "OCF_ERR_PERM", "insufficient permissions (hard)"),
    ERR_INSTALLED(5, "OCF_ERR_INSTALLED", "required software not installed on this node (hard)"),
    ERR_CONFIGURED(6, "OCF_ERR_CONFIGURED", "the resource's configuration is invalid (fatal)"),
    NOT_RUNNING(7, "OCF_NOT_RUNNING", "the resource is not running"),
    RUNNING_MASTER(8, "OCF_RUNNING_MASTER", "running in the promoted (master) role");

    private final int code;
    private final String constant;
    private final String meaning;

    OcfExitCode(int code, String constant, String meaning) {
        this.code = code;
        this.constant = constant;
        this.meaning = meaning;
    }

    /** @return the exit status */
    public int code() {
        return code;
    }

    /** @return the shell constant, e.g. {@code OCF_NOT_RUNNING} */
    public String constant() {
        return constant;
    }

    /** @return what it means */
    public String meaning() {
        return meaning;
    }

    /**
     * @param code an exit status
     * @return its constant, or empty for 9..255 (Pacemaker treats unknown codes as errors)
     */
    public static Optional<OcfExitCode> of(int code) {
        return Arrays.stream(values()).filter(c -> c.code == code).findFirst();
    }

    /** @param code an exit status @return e.g. {@code "rc=7 OCF_NOT_RUNNING"} or {@code "rc=42 (not an OCF code)"} */
    public static String describe(int code) {
        return "rc=" + code + of(code).map(c -> " " + c.constant).orElse(" (not an OCF code)");
    }
}
