package org.jheartbeat.core.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One field of a Heartbeat message: a name, a {@link FieldType} and the value bytes exactly as they
 * appear in the netstring format (cluster-glue 1.0.12 {@code include/ha_msg.h}). String values are
 * byte strings; {@link #stringValue()} maps each byte to the char of the same code (ISO-8859-1), so
 * any bytes round-trip through a {@code String}.
 *
 * @param name  non-empty; contains no {@code '='}, {@code '\n'} or NUL (the first {@code '='} on the
 *              wire separates name from value)
 * @param type  the field type, not null
 * @param value the raw value bytes, possibly empty; copied on the way in and out
 */
public record HaField(String name, FieldType type, byte[] value) {
    /**
     * @throws IllegalArgumentException if the name is empty or holds {@code '='}, {@code '\n'} or NUL
     * @throws NullPointerException     if any component is null
     */
    public HaField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(value, "value");
        if (!isValidName(name)) {
            throw new IllegalArgumentException("invalid field name: " + name.replace("\n", "\\n"));
        }
        value = value.clone();
    }

    /**
     * A string field; each char must be in U+0000..U+00FF (one wire byte each).
     *
     * @throws IllegalArgumentException for a char above U+00FF or an invalid name
     */
    public static HaField ofString(String name, String value) {
        return new HaField(name, FieldType.STRING, latin1(value));
    }

    /** A binary field holding a copy of {@code value}. */
    public static HaField ofBinary(String name, byte[] value) {
        return new HaField(name, FieldType.BINARY, value);
    }

    /** Whether {@code name} is usable as a field name: non-empty, no {@code '='}, newline or NUL. */
    public static boolean isValidName(String name) {
        return !name.isEmpty() && name.indexOf('=') < 0 && name.indexOf('\n') < 0 && name.indexOf('\0') < 0;
    }

    /** A copy of the raw value bytes (wire bytes in the netstring format), possibly empty. */
    @Override
    public byte[] value() {
        return value.clone();
    }

    /** The value bytes decoded as ISO-8859-1 (byte {@code b} becomes char {@code b & 0xff}). */
    public String stringValue() {
        return new String(value, StandardCharsets.ISO_8859_1);
    }

    /** Number of value bytes. */
    public int length() {
        return value.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HaField f && f.name.equals(name) && f.type == type && Arrays.equals(f.value, value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, Arrays.hashCode(value));
    }

    /** {@code name=value} for strings, {@code (1)name=<hex>} for other types. */
    @Override
    public String toString() {
        return type == FieldType.STRING
                ? name + "=" + stringValue()
                : "(" + type.digit() + ")" + name + "=" + HexFormat.of().formatHex(value);
    }

    static byte[] latin1(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0xff) {
                throw new IllegalArgumentException("char U+" + Integer.toHexString(s.charAt(i))
                        + " at index " + i + " does not fit one byte (ISO-8859-1)");
            }
        }
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
