package org.jheartbeat.core.wire;

import java.util.Arrays;
import java.util.Objects;

/**
 * The result of {@link NetstringCodec#decode(byte[])}: the message, the bytes its trailer signs, and
 * the trailer itself, so a caller can verify (or log) authentication separately from parsing.
 *
 * @param message      the decoded fields, in wire order
 * @param signedRegion the datagram bytes from the first {@code #} of {@code ###\n} through the
 *                     {@code \n} of {@code %%%\n}, inclusive (copied in and out)
 * @param trailer      the trailer netstring's content, {@code "<index> <hex>"} as received, decoded
 *                     as ISO-8859-1 and not yet validated
 */
public record DecodedNetstring(HaMessage message, byte[] signedRegion, String trailer) {
    /** @throws NullPointerException if any component is null */
    public DecodedNetstring {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(trailer, "trailer");
        signedRegion = signedRegion.clone();
    }

    /** A copy of the signed bytes, {@code ###\n} through {@code %%%\n} inclusive. */
    @Override
    public byte[] signedRegion() {
        return signedRegion.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DecodedNetstring d && d.message.equals(message)
                && Arrays.equals(d.signedRegion, signedRegion) && d.trailer.equals(trailer);
    }

    @Override
    public int hashCode() {
        return Objects.hash(message, Arrays.hashCode(signedRegion), trailer);
    }

    @Override
    public String toString() {
        return "DecodedNetstring[" + message + ", signedRegion=" + signedRegion.length + " bytes, trailer="
                + trailer + "]";
    }
}
