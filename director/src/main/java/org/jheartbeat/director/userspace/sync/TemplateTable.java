package org.jheartbeat.director.userspace.sync;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.director.userspace.sched.SyncedTemplate;

/**
 * The standby's copy of the active director's persistence templates: what {@code hb lvs syncd} receives
 * and keeps in its file for the director's next start. A template is keyed by its service and client key;
 * a newer packet replaces its real server and end. Times are wall-clock milliseconds (the file outlives
 * the process), read from the caller; ended templates are dropped. At most {@value #MAX_TEMPLATES}
 * templates; beyond that new keys are refused and counted.
 *
 * <p>Acceptance ({@link #accept}) is pure: a datagram counts only if it comes from a peer address, is
 * signed with the authkeys key and carries this node's syncid (when one is set); anything else changes
 * nothing and is counted as bad.
 */
public final class TemplateTable {
    /** The most templates kept. */
    public static final int MAX_TEMPLATES = 65_536;
    /** The longest file read (bytes): {@value #MAX_TEMPLATES} lines of at most about 150 bytes. */
    static final long MAX_FILE = 10L << 20;

    /** Why a datagram was taken or not. */
    public enum Outcome {
        ACCEPTED, UNKNOWN_PEER, BAD_PACKET, OTHER_SYNCID
    }

    private record Key(boolean udp, InetSocketAddress virtual, InetAddress client) {
    }

    private record Held(InetSocketAddress real, long endsAtMillis) {
    }

    private final Set<InetAddress> peers;
    private final MessageAuthenticator auth;
    private final Optional<Integer> syncId;
    private final Map<Key, Held> held = new LinkedHashMap<>();
    private long accepted;
    private long bad;
    private long refused;
    private String lastBad = "";

    /**
     * @param peers  the other director's addresses on the sync link (the only accepted sources)
     * @param auth   the cluster's authkeys
     * @param syncId this pair's syncid, if set: packets of another id are ignored (as the kernel's backup)
     */
    public TemplateTable(Set<InetAddress> peers, MessageAuthenticator auth, Optional<Integer> syncId) {
        this.peers = Set.copyOf(peers);
        this.auth = auth;
        this.syncId = syncId;
    }

    /** Takes one datagram from {@code source} received at {@code nowMillis}, or counts why not. */
    public Outcome accept(InetAddress source, byte[] data, int length, long nowMillis) {
        if (!peers.contains(source)) {
            bad++;
            lastBad = "from " + source.getHostAddress() + ", not a syncpeer";
            return Outcome.UNKNOWN_PEER;
        }
        TemplateWire.Packet p;
        try {
            p = TemplateWire.decode(data, length, auth);
        } catch (TemplateWire.BadPacket e) {
            bad++;
            lastBad = "from " + source.getHostAddress() + ": " + e.getMessage();
            return Outcome.BAD_PACKET;
        }
        if (syncId.isPresent() && !p.syncId().equals(syncId)) {
            bad++;
            lastBad = "from " + source.getHostAddress() + ": syncid " + p.syncId().map(String::valueOf).orElse("none")
                    + ", this node's is " + syncId.get();
            return Outcome.OTHER_SYNCID;
        }
        accepted++;
        merge(p.entries(), nowMillis);
        return Outcome.ACCEPTED;
    }

    /**
     * Keeps {@code entries} (their remaining time counted from {@code nowMillis}); ended ones are dropped by
     * {@link #expire} (once a second, not per datagram: a full table is many datagrams).
     */
    public void merge(List<SyncEntry> entries, long nowMillis) {
        for (SyncEntry e : entries) {
            Key k = new Key(e.udp(), e.virtual(), e.template().client());
            if (e.template().remainingMillis() == 0) {
                held.remove(k);
            } else if (held.size() < MAX_TEMPLATES || held.containsKey(k)) {
                held.put(k, new Held(e.template().real(), nowMillis + e.template().remainingMillis()));
            } else {
                refused++;
            }
        }
    }

    /** Drops the templates ended at {@code nowMillis}. */
    public void expire(long nowMillis) {
        held.values().removeIf(h -> h.endsAtMillis <= nowMillis);
    }

    /** The templates still valid at {@code nowMillis}, with their time left. */
    public List<SyncEntry> live(long nowMillis) {
        List<SyncEntry> out = new ArrayList<>();
        held.forEach((k, h) -> {
            if (h.endsAtMillis > nowMillis) {
                out.add(new SyncEntry(k.udp, k.virtual, new SyncedTemplate(k.client, h.real, h.endsAtMillis - nowMillis)));
            }
        });
        return out;
    }

    /** Templates held, datagrams accepted, bad datagrams, templates refused (table full), the last bad reason. */
    public record Figures(int held, long accepted, long bad, long refused, String lastBad) {
    }

    public Figures figures() {
        return new Figures(held.size(), accepted, bad, refused, lastBad);
    }

    /**
     * Writes the templates valid at {@code nowMillis} to {@code file} (mode 600, through a temporary file
     * and a rename, so a reader never sees half a file): one line each, {@code tcp|udp VIP:PORT CLIENT
     * RIP:PORT END_MS}.
     */
    public void save(Path file, long nowMillis) throws IOException {
        StringBuilder sb = new StringBuilder();
        held.forEach((k, h) -> {
            if (h.endsAtMillis > nowMillis) {
                sb.append(k.udp ? "udp " : "tcp ").append(endpoint(k.virtual)).append(' ')
                        .append(k.client.getHostAddress()).append(' ').append(endpoint(h.real)).append(' ')
                        .append(h.endsAtMillis).append('\n');
            }
        });
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, sb, StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The templates of a file written by {@link #save}, still valid at {@code nowMillis}; a missing file is
     * none; a file larger than {@value #MAX_FILE} bytes, or a line that cannot be read, is skipped (the line
     * or the whole file: these are hints, a client without one is scheduled afresh).
     */
    public static List<SyncEntry> load(Path file, long nowMillis) throws IOException {
        if (!Files.exists(file) || Files.size(file) > MAX_FILE) {
            return List.of();
        }
        List<SyncEntry> out = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
            String[] w = line.split(" ");
            if (w.length != 5 || out.size() >= MAX_TEMPLATES || !(w[0].equals("tcp") || w[0].equals("udp"))) {
                continue;
            }
            try {
                long left = Long.parseLong(w[4]) - nowMillis;
                if (left > 0) {
                    out.add(new SyncEntry(w[0].equals("udp"), endpoint(w[1]), new SyncedTemplate(numeric(w[2]),
                            endpoint(w[3]), Math.min(left, TemplateWire.MAX_REMAINING_MILLIS))));
                }
            } catch (IllegalArgumentException e) {
                // a damaged line: skipped
            }
        }
        return out;
    }

    static String endpoint(InetSocketAddress a) {
        String h = a.getAddress().getHostAddress();
        return (h.contains(":") ? "[" + h + "]" : h) + ":" + a.getPort();
    }

    static InetSocketAddress endpoint(String s) {
        int colon = s.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(s);
        }
        return new InetSocketAddress(numeric(s.substring(0, colon).replace("[", "").replace("]", "")),
                Integer.parseInt(s.substring(colon + 1)));
    }

    static InetAddress numeric(String s) {
        if (!s.matches("[0-9.]{7,15}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
            throw new IllegalArgumentException(s);
        }
        try {
            return InetAddress.getByName(s);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(s, e);
        }
    }
}
