package org.jheartbeat.core.control;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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

    /**
     * Copies the fields of the JSON object {@code objectJson} into the object {@code g} is writing,
     * numbers as they are written there (no rounding through double).
     *
     * @throws IOException if {@code objectJson} is not one JSON object
     */
    public static void copyFields(String objectJson, JsonGenerator g) throws IOException {
        try (JsonParser p = FACTORY.createParser(objectJson)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object: " + abbreviate(objectJson));
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                g.writeFieldName(p.currentName());
                p.nextToken();
                g.copyCurrentStructureExact(p);
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw new IOException("not one JSON object: " + abbreviate(objectJson));
            }
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "...";
    }
}
