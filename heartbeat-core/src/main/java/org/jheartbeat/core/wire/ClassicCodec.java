package org.jheartbeat.core.wire;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.wire.WireFormatException.Reason;

/**
 * The classic text format of Heartbeat 3.0.6, used on serial links, on the local FIFO, and as the
 * input of the inner {@code auth=} digest, as cluster-glue 1.0.12 {@code lib/clplumbing/cl_msg.c}
 * ({@code msg2string_buf}, {@code string2msg_ll}) and {@code cl_msg_types.c}:
 *
 * <pre>
 * "&gt;&gt;&gt;\n"  { ["(" T ")"] name "=" text "\n" }  "&lt;&lt;&lt;\n"
 * </pre>
 *
 * <p>The {@code (T)} prefix is written only for non-string types. String values are written as is
 * except that {@code \n} becomes byte 0x13 (and 0x13 reads back as {@code \n}); binary values are
 * standard base64 with padding; list values are their packed {@code len:str,} text. Struct and
 * compressed fields are not supported here (R1 never sends them). Decoding is bounded by {@link
 * NetstringCodec#MAX_MESSAGE_BYTES} and fails only with {@link WireFormatException}. Stateless;
 * all methods are static and thread-safe.
 */
public final class ClassicCodec {
    static final byte[] START = ">>>\n".getBytes(ISO_8859_1);
    private static final byte[] END_LINE = "<<<".getBytes(ISO_8859_1);
    private static final byte[] END = "<<<\n".getBytes(ISO_8859_1);
    private static final byte NEWLINE_SUBSTITUTE = 0x13;

    private ClassicCodec() {
    }

    /**
     * Encodes a complete classic frame, including any {@code auth} field the message holds.
     *
     * @return {@code >>>\n}, one line per field, {@code <<<\n}
     * @throws IllegalArgumentException for an empty value (Heartbeat's parser refuses {@code name=}),
     *     a struct or compressed field, or a result over {@link NetstringCodec#MAX_MESSAGE_BYTES}
     */
    public static byte[] encode(HaMessage m) {
        for (HaField f : m.fields()) {
            if (f.length() == 0) {
                throw new IllegalArgumentException("field " + f.name() + " has an empty value, which the classic"
                        + " format cannot carry");
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        out.writeBytes(START);
        render(m, false, out);
        out.writeBytes(END);
        if (out.size() > NetstringCodec.MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException("classic frame of " + out.size() + " bytes exceeds "
                    + NetstringCodec.MAX_MESSAGE_BYTES);
        }
        return out.toByteArray();
    }

    /**
     * The bytes covered by the inner {@code auth=} digest: the field lines of every field except
     * {@code auth}, in order, without the {@code >>>}/{@code <<<} lines (Heartbeat {@code
     * ha_msg_internal.c add_msg_auth}/{@code isauthentic}, cluster-glue {@code msg2string_buf} in
     * no-header mode). Empty values are rendered as {@code name=\n}.
     *
     * @throws IllegalArgumentException for a struct or compressed field
     */
    public static byte[] renderForAuth(HaMessage m) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        render(m, true, out);
        return out.toByteArray();
    }

    /**
     * Parses one classic frame without checking authentication. Leading newlines are skipped; the
     * frame must then start with {@code >>>\n}; blank lines are skipped; it ends at a {@code <<<} line
     * or at the first NUL byte; only newlines and NULs may follow.
     *
     * @param frame one frame, at most {@link NetstringCodec#MAX_MESSAGE_BYTES} bytes
     * @throws WireFormatException {@code TOO_LARGE} over the limit; {@code UNKNOWN_FORMAT} without
     *     {@code >>>\n}; {@code MALFORMED} for a line without {@code =}, an empty name or value, an
     *     explicit {@code (0)}, an unknown or unsupported type digit, bad base64, a missing end, or
     *     trailing bytes
     */
    public static HaMessage decode(byte[] frame) throws WireFormatException {
        if (frame.length > NetstringCodec.MAX_MESSAGE_BYTES) {
            throw new WireFormatException(Reason.TOO_LARGE,
                    "classic frame of " + frame.length + " bytes exceeds " + NetstringCodec.MAX_MESSAGE_BYTES);
        }
        int pos = skipNewlines(frame, 0, frame.length);
        if (!NetstringCodec.startsWith(frame, pos, START)) {
            throw new WireFormatException(Reason.UNKNOWN_FORMAT, "no >>>\\n start marker at offset " + pos);
        }
        int nul = NetstringCodec.indexOf(frame, (byte) 0, 0, frame.length);
        int limit = nul < 0 ? frame.length : nul;
        List<HaField> fields = new ArrayList<>();
        pos += START.length;
        while (true) {
            pos = skipNewlines(frame, pos, limit);
            if (pos == limit) {
                if (nul < 0) {
                    throw malformed("missing <<< end marker before end of frame at offset " + pos);
                }
                break;
            }
            int lineEnd = NetstringCodec.indexOf(frame, (byte) '\n', pos, limit);
            lineEnd = lineEnd < 0 ? limit : lineEnd;
            if (lineEnd - pos == END_LINE.length && NetstringCodec.startsWith(frame, pos, END_LINE)) {
                pos = lineEnd;
                break;
            }
            fields.add(parseLine(frame, pos, lineEnd));
            pos = lineEnd;
        }
        for (int i = pos; i < frame.length; i++) {
            if (frame[i] != '\n' && frame[i] != 0) {
                throw malformed((frame.length - i) + " trailing bytes after end of frame at offset " + i);
            }
        }
        return HaMessage.of(fields);
    }

    /**
     * Parses a classic frame and checks its inner {@code auth=} field against {@link
     * #renderForAuth(HaMessage)} of the decoded message, as Heartbeat {@code isauthentic}.
     *
     * <p>A frame with more than one {@code auth} field is refused: the digest covers no {@code auth}
     * line, so extra ones could be added to a signed frame unnoticed (found by WireFuzzTest); no
     * Heartbeat node sends two.
     *
     * @throws AuthenticationException if there is no {@code auth} field, more than one, or it does not verify
     * @throws WireFormatException     as {@link #decode(byte[])}
     */
    public static HaMessage decodeAndVerify(byte[] frame, MessageAuthenticator a) throws WireFormatException {
        HaMessage m = decode(frame);
        long auths = m.fields().stream().filter(f -> f.name().equals(Field.AUTH.wireName())).count();
        if (auths > 1) {
            throw new AuthenticationException("classic message has " + auths + " auth fields; a signed message has one");
        }
        String auth = m.get(Field.AUTH)
                .orElseThrow(() -> new AuthenticationException("classic message has no auth field"));
        if (!a.verify(auth, renderForAuth(m))) {
            throw new AuthenticationException("classic auth field [" + NetstringCodec.printable(auth)
                    + "] refused: " + a.refusal(auth));
        }
        return m;
    }

    private static void render(HaMessage m, boolean skipAuth, ByteArrayOutputStream out) {
        for (HaField f : m.fields()) {
            if (skipAuth && f.name().equals(Field.AUTH.wireName())) {
                continue;
            }
            if (f.type() != FieldType.STRING) {
                out.writeBytes(("(" + f.type().digit() + ")").getBytes(ISO_8859_1));
            }
            out.writeBytes(f.name().getBytes(ISO_8859_1));
            out.write('=');
            out.writeBytes(text(f));
            out.write('\n');
        }
    }

    private static byte[] text(HaField f) {
        return switch (f.type()) {
            case STRING, LIST -> replace(f.value(), (byte) '\n', NEWLINE_SUBSTITUTE);
            case BINARY -> Base64.getEncoder().encode(f.value());
            case STRUCT, COMPRESS -> throw new IllegalArgumentException(
                    "field " + f.name() + " of type " + f.type() + " has no classic rendering here");
        };
    }

    private static HaField parseLine(byte[] frame, int start, int end) throws WireFormatException {
        int eq = NetstringCodec.indexOf(frame, (byte) '=', start, end);
        if (eq < 0) {
            throw malformed("line at offset " + start + " has no '='");
        }
        FieldType type = FieldType.STRING;
        int nameStart = start;
        if (frame[start] == '(') {
            if (eq - start < 4 || frame[start + 2] != ')') {
                throw malformed("bad (T) type prefix at offset " + start);
            }
            type = classicType(frame[start + 1], start + 1);
            nameStart = start + 3;
        }
        if (eq == nameStart) {
            throw malformed("empty field name at offset " + start);
        }
        if (eq + 1 == end) {
            throw malformed("empty value for field at offset " + start);
        }
        String name = new String(frame, nameStart, eq - nameStart, ISO_8859_1);
        byte[] raw = Arrays.copyOfRange(frame, eq + 1, end);
        if (type == FieldType.BINARY) {
            try {
                return new HaField(name, type, Base64.getDecoder().decode(raw));
            } catch (IllegalArgumentException e) {
                throw malformed("invalid base64 in field " + NetstringCodec.printable(name) + " at offset "
                        + (eq + 1));
            }
        }
        return new HaField(name, type, replace(raw, NEWLINE_SUBSTITUTE, (byte) '\n'));
    }

    private static FieldType classicType(byte digit, int offset) throws WireFormatException {
        FieldType type = FieldType.fromDigit(digit - '0').orElseThrow(() -> malformed(
                "unknown field type digit '" + (char) (digit & 0xff) + "' at offset " + offset));
        return switch (type) {
            case BINARY, LIST -> type;
            case STRING -> throw malformed("explicit (0) string type at offset " + offset + " (wrong type)");
            case STRUCT, COMPRESS -> throw malformed("unsupported field type " + type + " at offset " + offset);
        };
    }

    private static int skipNewlines(byte[] data, int pos, int limit) {
        while (pos < limit && data[pos] == '\n') {
            pos++;
        }
        return pos;
    }

    private static byte[] replace(byte[] data, byte from, byte to) {
        byte[] copy = data.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] == from) {
                copy[i] = to;
            }
        }
        return copy;
    }

    private static WireFormatException malformed(String message) {
        return new WireFormatException(Reason.MALFORMED, message);
    }
}
