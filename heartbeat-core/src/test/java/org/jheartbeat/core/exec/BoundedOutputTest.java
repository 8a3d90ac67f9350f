package org.jheartbeat.core.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BoundedOutputTest {

    @Test
    void keepsTheFirstBytesUpToTheLimit() {
        BoundedOutput out = new BoundedOutput(5);
        out.write("abc".getBytes(StandardCharsets.UTF_8), 0, 3);
        out.write("defgh".getBytes(StandardCharsets.UTF_8), 0, 5);
        out.write('z');
        assertThat(out.text()).isEqualTo("abcde");
        assertThat(out.size()).isEqualTo(5);
    }

    @Test
    void aLimitMustBePositive() {
        assertThatThrownBy(() -> new BoundedOutput(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit must be positive: 0");
    }
}
