package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class JsonTextTest {

    @Test
    void copiedFieldsKeepTheirTextAndOrder() {
        String out = JsonText.write(g -> {
            g.writeStartObject();
            JsonText.copyFields("{\"b\":0.50,\"a\":[1,\"x\\ny\",null,{\"c\":true}]}", g);
            g.writeStringField("z", "q\"");
            g.writeEndObject();
        });
        assertThat(out).isEqualTo("{\"b\":0.50,\"a\":[1,\"x\\ny\",null,{\"c\":true}],\"z\":\"q\\\"\"}");
    }

    @Test
    void copyingSomethingElseThanOneObjectFails() {
        assertThatThrownBy(() -> JsonText.write(g -> {
            g.writeStartObject();
            JsonText.copyFields("[1]", g);
        })).isInstanceOf(UncheckedIOException.class).hasMessageContaining("not a JSON object: [1]");
        assertThatThrownBy(() -> JsonText.write(g -> {
            g.writeStartObject();
            JsonText.copyFields("{} {}", g);
        })).isInstanceOf(UncheckedIOException.class).hasMessageContaining("not one JSON object");
    }
}
