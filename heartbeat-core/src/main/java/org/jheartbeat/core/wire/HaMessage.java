package org.jheartbeat.core.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * An immutable Heartbeat message: an ordered list of {@link HaField}s, as cluster-glue 1.0.12 {@code
 * struct ha_msg}. Order is significant (it is kept on the wire and covered by authentication) and
 * duplicate names are allowed; lookups return the first field with the name. Modifiers return new
 * messages. Equality is field-by-field, in order.
 */
public final class HaMessage {
    private final List<HaField> fields;

    private HaMessage(List<HaField> fields) {
        this.fields = List.copyOf(fields);
    }

    /** A builder for a new message, fields in call order. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A message holding {@code fields} in the given order.
     *
     * @throws NullPointerException if the list or an element is null
     */
    public static HaMessage of(List<HaField> fields) {
        return new HaMessage(fields);
    }

    /** The fields in wire order; unmodifiable. */
    public List<HaField> fields() {
        return fields;
    }

    /** The first field called {@code name}, if any. */
    public Optional<HaField> field(String name) {
        return fields.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    /** The value of the first field called {@code name}, decoded as ISO-8859-1, whatever its type. */
    public Optional<String> get(String name) {
        return field(name).map(HaField::stringValue);
    }

    /** As {@link #get(String)} with the field's wire name. */
    public Optional<String> get(Field name) {
        return get(name.wireName());
    }

    /** A copy of the raw value bytes of the first field called {@code name}, whatever its type. */
    public Optional<byte[]> getBinary(String name) {
        return field(name).map(HaField::value);
    }

    /** As {@link #getBinary(String)} with the field's wire name. */
    public Optional<byte[]> getBinary(Field name) {
        return getBinary(name.wireName());
    }

    /** The value of {@code t}, or empty if the message has none. */
    public Optional<String> type() {
        return get(Field.TYPE);
    }

    /** The {@code t} value as a known {@link MessageType}; empty if absent or unknown. */
    public Optional<MessageType> messageType() {
        return type().flatMap(MessageType::fromWire);
    }

    /**
     * A copy with string field {@code name} set to {@code value}: the first field of that name is
     * replaced in place (keeping its position), otherwise the field is appended last. This is how
     * Heartbeat {@code add_control_msg_fields} treats control fields.
     *
     * @throws IllegalArgumentException for an invalid name or a char above U+00FF
     */
    public HaMessage with(String name, String value) {
        return with(HaField.ofString(name, value));
    }

    /** As {@link #with(String, String)} with the field's wire name. */
    public HaMessage with(Field name, String value) {
        return with(name.wireName(), value);
    }

    /** As {@link #with(String, String)} for a binary field. */
    public HaMessage withBinary(String name, byte[] value) {
        return with(HaField.ofBinary(name, value));
    }

    /** As {@link #withBinary(String, byte[])} with the field's wire name. */
    public HaMessage withBinary(Field name, byte[] value) {
        return withBinary(name.wireName(), value);
    }

    /** A copy with {@code field} replacing the first field of the same name, or appended last. */
    public HaMessage with(HaField field) {
        List<HaField> copy = new ArrayList<>(fields);
        for (int i = 0; i < copy.size(); i++) {
            if (copy.get(i).name().equals(field.name())) {
                copy.set(i, field);
                return new HaMessage(copy);
            }
        }
        copy.add(field);
        return new HaMessage(copy);
    }

    /** A copy without any field called {@code name} (this message if there is none). */
    public HaMessage without(String name) {
        List<HaField> kept = fields.stream().filter(f -> !f.name().equals(name)).toList();
        return kept.size() == fields.size() ? this : new HaMessage(kept);
    }

    /** As {@link #without(String)} with the field's wire name. */
    public HaMessage without(Field name) {
        return without(name.wireName());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HaMessage m && m.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    /** E.g. {@code HaMessage[t=status, st=up, (1)srcuuid=2545…]}; binary values in hex. */
    @Override
    public String toString() {
        return fields.stream().map(HaField::toString).collect(Collectors.joining(", ", "HaMessage[", "]"));
    }

    /** Accumulates fields in order. Not thread-safe; reusable after {@link #build()}. */
    public static final class Builder {
        private final List<HaField> fields = new ArrayList<>();

        private Builder() {
        }

        /**
         * Appends a string field (duplicates allowed).
         *
         * @throws IllegalArgumentException for an invalid name or a char above U+00FF
         */
        public Builder add(String name, String value) {
            return add(HaField.ofString(name, value));
        }

        /** As {@link #add(String, String)} with the field's wire name. */
        public Builder add(Field name, String value) {
            return add(name.wireName(), value);
        }

        /** Appends a binary field holding a copy of {@code value}. */
        public Builder addBinary(String name, byte[] value) {
            return add(HaField.ofBinary(name, value));
        }

        /** As {@link #addBinary(String, byte[])} with the field's wire name. */
        public Builder addBinary(Field name, byte[] value) {
            return addBinary(name.wireName(), value);
        }

        /** Appends any field. */
        public Builder add(HaField field) {
            fields.add(Objects.requireNonNull(field, "field"));
            return this;
        }

        /** The message with the fields added so far. */
        public HaMessage build() {
            return new HaMessage(fields);
        }
    }
}
