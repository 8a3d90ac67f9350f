package org.jheartbeat.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * One in-process run of {@code hb} through picocli's {@code execute()}, with standard output and
 * error captured: what the user would see, and the exit code.
 *
 * @param code the exit code
 * @param out  everything printed on standard output
 * @param err  everything printed on standard error
 */
record HbRun(int code, String out, String err) {

    /** Runs {@code hb ARGS...} with the production command line (exit-code mapping included). */
    static HbRun hb(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = CommandLines.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new HbRun(code, out.toString(), err.toString());
    }
}
