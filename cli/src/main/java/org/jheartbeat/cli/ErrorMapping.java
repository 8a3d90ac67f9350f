package org.jheartbeat.cli;

import java.nio.file.AccessDeniedException;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.control.ControlClient;

/**
 * The one place that maps exceptions escaping a command to an exit code and a one-line message
 * (never a stack trace): {@link UserException} keeps its code, a missing daemon is
 * {@link ExitCodes#NOT_RUNNING}, permission problems {@link ExitCodes#PERMISSION}, the rest
 * {@link ExitCodes#FAILURE}. For picocli's commands through {@link ExceptionMapper}; in a class of its own that
 * refers to no picocli type, so that the direct paths of {@code Main} (status, cl_status, the daemon's start)
 * map their errors without loading picocli.
 */
final class ErrorMapping {
    private ErrorMapping() {
    }

    /**
     * Prints {@code hb: MESSAGE} for {@code ex} on {@code err} and returns its exit code (picocli's execution handler
     * {@link ExceptionMapper} and the direct paths of {@code Main}).
     */
    static int map(Exception ex, java.io.PrintWriter err) {
        int code;
        String msg;
        if (ex instanceof UserException u) {
            code = u.exitCode();
            msg = u.getMessage();
        } else if (ex instanceof ControlClient.NotRunningException) {
            code = ExitCodes.NOT_RUNNING;
            msg = ex.getMessage();
        } else if (ex instanceof ControlClient.DeniedException) {
            code = ExitCodes.PERMISSION;
            msg = "denied: " + ex.getMessage();
        } else if (ex instanceof AccessDeniedException a) {
            code = ExitCodes.PERMISSION;
            msg = "permission denied on " + a.getFile() + ": run as root or as a member of group haclient";
        } else if (ex instanceof java.io.IOException && ex.getMessage() != null) {
            // the control client's and the files' own words say what happened; the class name adds nothing
            code = ExitCodes.FAILURE;
            msg = ex.getMessage();
        } else {
            code = ExitCodes.FAILURE;
            msg = ex.getClass().getSimpleName() + ": " + ex.getMessage();
        }
        err.println("hb: " + msg);
        err.flush();
        return code;
    }
}
