package org.jheartbeat.core.control;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * JSON text written with jackson-core's streaming generator, so that quoting and escaping are the
 * library's and no caller joins JSON by hand. Compact output (no spaces), as {@code hb status --json}
 * always printed it.
 */
public final class JsonText {

    /** One writer of JSON into a generator. */
    @FunctionalInterface
    public interface Writer {
        /**
         * Writes JSON values or, inside an object, fields.
         *
         * @throws IOException only from the generator (never for text in memory)
         */
        void write(JsonGenerator g) throws IOException;
    }

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private JsonText() {
    }

    /**
     * The text {@code body} writes.
     *
     * @throws UncheckedIOException if the generator refuses (e.g. a field written outside an object)
     */
    public static String write(Writer body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
