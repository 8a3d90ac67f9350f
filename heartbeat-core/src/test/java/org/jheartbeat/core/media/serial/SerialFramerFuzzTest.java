package org.jheartbeat.core.media.serial;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jheartbeat.core.testkit.Mutations;
import org.jheartbeat.core.testkit.Mutations.Mutant;
import org.jheartbeat.core.wire.HeartbeatVectors;

/**
 * Fuzzer of {@link SerialFramer} (it reads whatever the line carries, noise included), grown from the byte
 * streams two real Heartbeat
 * 3.0.6 nodes wrote on a null-modem line ({@code serial/}): mutated streams cut into arbitrary chunks,
 * at the default bound and at small bounds that force overflow. Properties: it never throws; it never
 * holds more than its bound; every byte fed (CRs aside) is in a returned frame, counted as garbage or
 * still buffered; every frame is {@code >>>…<<<\n} within the bound; the chunking does not change the
 * frames. Cases per property: {@code -Djhb.fuzz.tries} (docs/fuzzing.md).
 */
class SerialFramerFuzzTest {
    static final List<byte[]> STREAMS = streams();

    private static List<byte[]> streams() {
        List<byte[]> out = new ArrayList<>();
        for (Path p : HeartbeatVectors.serialStreams()) {
            byte[] stream = HeartbeatVectors.readSerialStream(p);
            out.add(stream);
            out.addAll(HeartbeatVectors.splitFrames(stream)); // single frames too, so mutations hit the markers often
        }
        return List.copyOf(out);
    }

    @Provide
    Arbitrary<Mutant> streamMutants() {
        return Mutations.of(STREAMS);
    }

    @Provide
    Arbitrary<Integer> bounds() {
        return Arbitraries.oneOf(Arbitraries.integers().between(8, 400), Arbitraries.just(SerialFramer.DEFAULT_MAX_FRAME_BYTES));
    }

    @Property
    void framesAreBoundedWellFormedAndEveryByteIsAccountedFor(@ForAll("streamMutants") Mutant m,
                                                               @ForAll("bounds") int bound,
                                                               @ForAll @IntRange(min = 1, max = 300) int chunk) {
        SerialFramer f = new SerialFramer(bound);
        byte[] in = m.bytes();
        List<byte[]> frames = new ArrayList<>();
        for (int off = 0; off < in.length; off += chunk) {
            frames.addAll(f.feed(in, off, Math.min(chunk, in.length - off)));
            assertThat(f.bufferedBytes()).as("%s", m).isLessThanOrEqualTo(bound);
        }
        long kept = 0;
        for (byte[] frame : frames) {
            String text = new String(frame, java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(text).as("%s", m).startsWith(">>>").endsWith("\n").doesNotContain("\r");
            assertThat(text.substring(text.lastIndexOf('\n', text.length() - 2) + 1)).as("%s", m).startsWith("<<<");
            assertThat(frame.length).isLessThanOrEqualTo(bound);
            kept += frame.length;
        }
        long fed = 0;
        for (byte b : in) {
            fed += b == '\r' ? 0 : 1;
        }
        assertThat(kept + f.garbageBytes() + f.bufferedBytes()).as("bytes accounted for, %s", m).isEqualTo(fed);
        assertThat(f.frames()).isEqualTo(frames.size());

        SerialFramer whole = new SerialFramer(bound);
        List<byte[]> once = whole.feed(in, 0, in.length);
        assertThat(concat(once)).as("chunking changed the frames: %s", m).isEqualTo(concat(frames));
        assertThat(whole.garbageBytes()).isEqualTo(f.garbageBytes());
    }

    private static byte[] concat(List<byte[]> frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        frames.forEach(out::writeBytes);
        return out.toByteArray();
    }
}
