package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * One request/answer exchange over a connected UDP socket, as the dns, radius and sip checks do
 * it: the request is sent again every {@code resendMs} milliseconds until a datagram the caller
 * recognises as its answer arrives; other datagrams are ignored. Bounded by the check's
 * {@link Deadline}, which throws when the whole check is out of time.
 */
final class UdpExchange {

    private UdpExchange() {
    }

    /**
     * @param socket     connected to the real server
     * @param request    the datagram to send
     * @param bufferSize the largest answer read, in bytes
     * @param resendMs   the resend interval, in milliseconds
     * @param deadline   the check's deadline
     * @param isAnswer   whether a datagram answers this request (e.g. its id matches)
     * @return the answer, exactly as long as received
     * @throws IOException on a socket error, or from {@code deadline} when out of time
     */
    static byte[] exchange(DatagramSocket socket, byte[] request, int bufferSize, int resendMs, Deadline deadline,
            Predicate<byte[]> isAnswer) throws IOException {
        byte[] buffer = new byte[bufferSize];
        long nextSend = 0;
        while (true) {
            long now = deadline.clock().nanoTime();
            if (now >= nextSend) {
                socket.send(new DatagramPacket(request, request.length));
                nextSend = now + resendMs * 1_000_000L;
            }
            long waitMs = Math.min(deadline.socketTimeout(),
                    Math.max(1, (nextSend - deadline.clock().nanoTime()) / 1_000_000L));
            socket.setSoTimeout((int) waitMs);
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(packet);
            } catch (SocketTimeoutException e) {
                deadline.socketTimeout(); // throws when the whole check is out of time
                continue;
            }
            byte[] answer = Arrays.copyOf(packet.getData(), packet.getLength());
            if (isAnswer.test(answer)) {
                return answer;
            }
        }
    }
}
