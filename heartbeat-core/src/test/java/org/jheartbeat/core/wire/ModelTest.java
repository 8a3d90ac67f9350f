package org.jheartbeat.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** HaField, HaMessage and the wire-spelling enums. */
class ModelTest {

    @Test
    void fieldTypeDigitsRoundTrip() {
        for (FieldType t : FieldType.values()) {
            assertThat(FieldType.fromDigit(t.digit())).contains(t);
        }
        assertThat(FieldType.fromDigit(5)).isEmpty();
        assertThat(FieldType.fromDigit(-1)).isEmpty();
        assertThat(FieldType.STRING.digit()).isZero();
        assertThat(FieldType.COMPRESS.digit()).isEqualTo(4);
    }

    @Test
    void messageTypesHaveUniqueWireNamesThatRoundTrip() {
        Set<String> seen = new HashSet<>();
        for (MessageType t : MessageType.values()) {
            assertThat(seen.add(t.wireName())).as(t.wireName()).isTrue();
            assertThat(MessageType.fromWire(t.wireName())).contains(t);
        }
        assertThat(MessageType.fromWire("STATUS")).isEmpty();
        assertThat(MessageType.fromWire(null)).isEmpty();
        assertThat(MessageType.ACK.wireName()).isEqualTo("NS_ackmsg");
        assertThat(MessageType.IP_REQUEST_RESPONSE.wireName()).isEqualTo("ip-request-resp");
        assertThat(MessageType.ACK.unsequenced()).isTrue();
        assertThat(MessageType.PING_STATUS.unsequenced()).isTrue();
        assertThat(MessageType.STATUS.unsequenced()).isFalse();
    }

    @Test
    void fieldsHaveUniqueValidWireNamesThatRoundTrip() {
        Set<String> seen = new HashSet<>();
        for (Field f : Field.values()) {
            assertThat(seen.add(f.wireName())).as(f.wireName()).isTrue();
            assertThat(HaField.isValidName(f.wireName())).isTrue();
            assertThat(Field.fromWire(f.wireName())).contains(f);
        }
        assertThat(Field.fromWire("T")).isEmpty();
        assertThat(Field.RESOURCES_HELD.wireName()).isEqualTo("rsc_hold");
    }

    @Test
    void haFieldCopiesDefensivelyAndComparesByContent() {
        byte[] value = {1, 2, 3};
        HaField f = HaField.ofBinary("srcuuid", value);
        value[0] = 9;
        f.value()[1] = 9;

        assertThat(f.value()).containsExactly(1, 2, 3);
        assertThat(f).isEqualTo(new HaField("srcuuid", FieldType.BINARY, new byte[] {1, 2, 3}));
        assertThat(f.hashCode()).isEqualTo(new HaField("srcuuid", FieldType.BINARY, new byte[] {1, 2, 3}).hashCode());
        assertThat(f).isNotEqualTo(new HaField("srcuuid", FieldType.STRING, new byte[] {1, 2, 3}));
    }

    @Test
    void stringValueRoundTripsEveryByte() {
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        HaField f = new HaField("x", FieldType.STRING, all);

        assertThat(HaField.ofString("x", f.stringValue())).isEqualTo(f);
    }

    @Test
    void invalidNamesAndWideCharsAreRefused() {
        assertThatThrownBy(() -> HaField.ofString("a=b", "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HaField.ofString("", "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HaField.ofString("a\nb", "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HaField.ofString("a", "\u20ac")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void messageLookupsAndModifiers() {
        HaMessage m = HaMessage.builder().add("t", "status").add("st", "up").addBinary("srcuuid", new byte[] {-1})
                .add("st", "second").build();

        assertThat(m.type()).contains("status");
        assertThat(m.get("st")).contains("up");
        assertThat(m.get("missing")).isEmpty();
        assertThat(m.getBinary("srcuuid")).hasValueSatisfying(v -> assertThat(v).containsExactly(-1));

        HaMessage replaced = m.with("st", "active");
        assertThat(replaced.fields()).extracting(HaField::name).containsExactly("t", "st", "srcuuid", "st");
        assertThat(replaced.get("st")).contains("active");
        assertThat(m.get("st")).as("original unchanged").contains("up");

        HaMessage appended = m.withBinary("destuuid", new byte[] {1});
        assertThat(appended.fields()).extracting(HaField::name).containsExactly("t", "st", "srcuuid", "st", "destuuid");

        assertThat(m.without("st").fields()).extracting(HaField::name).containsExactly("t", "srcuuid");
        assertThat(m.without("nope")).isSameAs(m);
        assertThat(HaMessage.builder().build().type()).isEmpty();
        assertThat(m.messageType()).contains(MessageType.STATUS);
    }

    @Test
    void messageIsImmutable() {
        HaMessage m = HaMessage.builder().add("t", "status").build();

        assertThatThrownBy(() -> m.fields().add(HaField.ofString("x", "y")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void toStringIsReadableWithBinaryAsHex() {
        HaMessage m = HaMessage.builder().add("t", "status").addBinary("srcuuid", new byte[] {0x25, 0x45}).build();

        assertThat(m).hasToString("HaMessage[t=status, (1)srcuuid=2545]");
    }

    @Test
    void equalityIsOrderSensitive() {
        HaMessage ab = HaMessage.builder().add("a", "1").add("b", "2").build();
        HaMessage ba = HaMessage.builder().add("b", "2").add("a", "1").build();

        assertThat(ab).isNotEqualTo(ba);
        assertThat(ab).isEqualTo(HaMessage.of(Arrays.asList(HaField.ofString("a", "1"), HaField.ofString("b", "2"))));
    }
}
