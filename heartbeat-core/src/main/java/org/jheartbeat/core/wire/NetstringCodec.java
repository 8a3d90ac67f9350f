package org.jheartbeat.core.wire;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.wire.WireFormatException.Reason;

/**
 * The netstring wire format that Heartbeat 3.0.6 sends on every UDP medium, as cluster-glue 1.0.12
 * {@code lib/clplumbing/cl_netstring.c} ({@code msg2netstring_buf}, {@code netstring2msg}):
 *
 * <pre>
 * "###\n"  { L ":" "(" T ")" name "=" value "," }  "%%%\n"  A ":" index " " hex ","
 * </pre>
 *
 * <p>{@code L} is the decimal byte count of {@code (T)name=value}; values are raw bytes with no
 * escaping; the trailer ({@code A} bytes) authenticates everything from {@code ###\n} through {@code
 * %%%\n}; nothing follows the final comma. Decoding is bounded by {@link #MAX_MESSAGE_BYTES} and
 * fails only with {@link WireFormatException}. Field values of types 2..4 are kept as raw bytes,
 * not parsed. Stateless; all methods are static and thread-safe.
 */
public final class NetstringCodec {
    /** Largest accepted datagram in bytes: cluster-glue {@code MAXMSG} (256 KiB). */
    public static final int MAX_MESSAGE_BYTES = 262_144;
    /** Start marker, 4 bytes. */
    static final byte[] START = "###\n".getBytes(ISO_8859_1);
    /** End-of-fields marker, 4 bytes. */
    static final byte[] END = "%%%\n".getBytes(ISO_8859_1);
    /** More digits than this cannot describe a length within {@link #MAX_MESSAGE_BYTES}. */
    private static final int MAX_LENGTH_DIGITS = 6;

    private NetstringCodec() {
    }

    /**
     * Encodes the fields without an authentication trailer (the bytes a trailer would sign).
     *
     * @param m the message; field order is preserved
     * @return {@code ###\n}, one netstring per field, {@code %%%\n}
     * @throws IllegalArgumentException if the result would exceed {@link #MAX_MESSAGE_BYTES}
     */
    public static byte[] encode(HaMessage m) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        out.writeBytes(START);
        for (HaField f : m.fields()) {
            byte[] name = f.name().getBytes(ISO_8859_1);
            byte[] value = f.value();
            int length = 3 + name.length + 1 + value.length;
            out.writeBytes((length + ":(" + f.type().digit() + ")").getBytes(ISO_8859_1));
            out.writeBytes(name);
            out.write('=');
            out.writeBytes(value);
            out.write(',');
        }
        out.writeBytes(END);
        return checkSize(out.toByteArray());
    }

    /**
     * Encodes the message and appends the authentication trailer {@code <len>:<index> <hex>,}
     * computed by {@code a} over {@link #encode(HaMessage)}'s bytes. This is the UDP datagram.
     *
     * @throws IllegalArgumentException if the result would exceed {@link #MAX_MESSAGE_BYTES}
     */
    public static byte[] encodeSigned(HaMessage m, MessageAuthenticator a) {
        byte[] region = encode(m);
        byte[] trailer = a.sign(region).getBytes(ISO_8859_1);
        ByteArrayOutputStream out = new ByteArrayOutputStream(region.length + trailer.length + 8);
        out.writeBytes(region);
        out.writeBytes((trailer.length + ":").getBytes(ISO_8859_1));
        out.writeBytes(trailer);
        out.write(',');
        return checkSize(out.toByteArray());
    }

    /**
     * Parses a datagram without checking its authentication.
     *
     * @param datagram the whole UDP payload, at most {@link #MAX_MESSAGE_BYTES} bytes
     * @return the fields, the signed region and the raw trailer text
     * @throws WireFormatException {@code TOO_LARGE} over the limit; {@code UNKNOWN_FORMAT} without
     *     {@code ###\n} at offset 0; {@code MALFORMED} for a bad length prefix, a missing comma, a
     *     field without {@code (T)} or {@code =}, an unknown type digit, a missing {@code %%%\n} or
     *     trailer, or bytes after the trailer
     */
    public static DecodedNetstring decode(byte[] datagram) throws WireFormatException {
        if (datagram.length > MAX_MESSAGE_BYTES) {
            throw new WireFormatException(Reason.TOO_LARGE,
                    "netstring datagram of " + datagram.length + " bytes exceeds " + MAX_MESSAGE_BYTES);
        }
        if (!startsWith(datagram, 0, START)) {
            throw new WireFormatException(Reason.UNKNOWN_FORMAT, "no ###\\n start marker at offset 0");
        }
        List<HaField> fields = new ArrayList<>();
        int pos = START.length;
        while (!startsWith(datagram, pos, END)) {
            if (pos >= datagram.length) {
                throw malformed("missing %%%\\n end marker before end of datagram at offset " + pos);
            }
            int[] span = peel(datagram, pos);
            fields.add(parseField(datagram, span[0], span[1]));
            pos = span[1] + 1;
        }
        int regionEnd = pos + END.length;
        if (regionEnd >= datagram.length) {
            throw malformed("missing auth trailer after %%%\\n at offset " + regionEnd);
        }
        int[] trailer = peel(datagram, regionEnd);
        if (trailer[1] + 1 != datagram.length) {
            throw malformed((datagram.length - trailer[1] - 1) + " trailing bytes after auth trailer at offset "
                    + (trailer[1] + 1));
        }
        byte[] region = Arrays.copyOfRange(datagram, 0, regionEnd);
        String trailerText = new String(datagram, trailer[0], trailer[1] - trailer[0], ISO_8859_1);
        return new DecodedNetstring(HaMessage.of(fields), region, trailerText);
    }

    /**
     * Parses a datagram and checks its trailer with {@code a} (the {@code auth} index; others only during a
     * key roll-over window). The inner
     * {@code auth=} field, if any, is not checked, as in cluster-glue {@code netstring2msg}.
     *
     * @throws AuthenticationException if the trailer does not verify
     * @throws WireFormatException     as {@link #decode(byte[])}
     */
    public static HaMessage decodeAndVerify(byte[] datagram, MessageAuthenticator a) throws WireFormatException {
        DecodedNetstring decoded = decode(datagram);
        if (!a.verify(decoded.trailer(), decoded.signedRegion())) {
            throw new AuthenticationException("netstring auth trailer [" + printable(decoded.trailer())
                    + "] refused: " + a.refusal(decoded.trailer()));
        }
        return decoded.message();
    }

    /** Reads {@code len ":" bytes ","} at {@code pos}; returns {content start, content end (comma)}. */
    private static int[] peel(byte[] data, int pos) throws WireFormatException {
        int p = pos;
        long length = 0;
        while (p < data.length && data[p] >= '0' && data[p] <= '9') {
            if (p - pos >= MAX_LENGTH_DIGITS) {
                throw malformed("netstring length prefix at offset " + pos + " has more than "
                        + MAX_LENGTH_DIGITS + " digits");
            }
            length = length * 10 + (data[p] - '0');
            p++;
        }
        if (p == pos || p >= data.length || data[p] != ':') {
            throw malformed("expected <decimal length>: at offset " + pos);
        }
        int start = p + 1;
        if (length > data.length - start - 1L) {
            throw malformed("netstring length " + length + " at offset " + pos + " exceeds the "
                    + Math.max(0, data.length - start - 1) + " bytes available");
        }
        int end = start + (int) length;
        if (data[end] != ',') {
            throw malformed("missing ',' after " + length + "-byte netstring at offset " + end);
        }
        return new int[] {start, end};
    }

    private static HaField parseField(byte[] data, int start, int end) throws WireFormatException {
        if (end - start < 4 || data[start] != '(' || data[start + 2] != ')') {
            throw malformed("field at offset " + start + " does not start with (T)");
        }
        int digit = data[start + 1] - '0';
        FieldType type = FieldType.fromDigit(digit).orElseThrow(
                () -> malformed("unknown field type digit '" + (char) (data[start + 1] & 0xff) + "' at offset "
                        + (start + 1)));
        int nameStart = start + 3;
        int eq = indexOf(data, (byte) '=', nameStart, end);
        if (eq < 0) {
            throw malformed("field at offset " + start + " has no '='");
        }
        String name = new String(data, nameStart, eq - nameStart, ISO_8859_1);
        if (!HaField.isValidName(name)) {
            throw malformed("invalid field name at offset " + nameStart);
        }
        return new HaField(name, type, Arrays.copyOfRange(data, eq + 1, end));
    }

    static boolean startsWith(byte[] data, int pos, byte[] prefix) {
        if (pos < 0 || data.length - pos < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (data[pos + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    static int indexOf(byte[] data, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (data[i] == b) {
                return i;
            }
        }
        return -1;
    }

    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < 80; i++) {
            char c = s.charAt(i);
            sb.append(c >= ' ' && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return s.length() > 80 ? sb + "..." : sb.toString();
    }

    private static byte[] checkSize(byte[] encoded) {
        if (encoded.length > MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException(
                    "encoded message of " + encoded.length + " bytes exceeds " + MAX_MESSAGE_BYTES);
        }
        return encoded;
    }

    private static WireFormatException malformed(String message) {
        return new WireFormatException(Reason.MALFORMED, message);
    }
}
