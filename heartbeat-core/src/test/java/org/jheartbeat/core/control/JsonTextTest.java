package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class JsonTextTest {

    @Test
    void textIsEscapedByTheGeneratorAndCompact() {
        String out = JsonText.write(g -> {
            g.writeStartObject();
            g.writeStringField("z", "q\"\\\n\u0001");
            g.writeNullField("n");
            g.writeEndObject();
        });
        assertThat(out).isEqualTo("{\"z\":\"q\\\"\\\\\\n\\u0001\",\"n\":null}");
    }

    @Test
    void aFieldOutsideAnObjectFails() {
        assertThatThrownBy(() -> JsonText.write(g -> g.writeStringField("a", "b")))
                .isInstanceOf(UncheckedIOException.class);
    }
}
