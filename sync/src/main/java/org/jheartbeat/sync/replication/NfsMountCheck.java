package org.jheartbeat.sync.replication;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.sync.MountTable;
import org.jheartbeat.sync.config.NfsTarget;

/**
 * Whether an NFS target's mount point really is that export, judged from the mount table alone
 * ({@code /proc/self/mountinfo}: the top mount at the mount point, its file system type and source),
 * never from a path test: the bare directory of a lost mount looks like any other directory, and rsync
 * would fill the local disk (docs/design/sync.md, "NFS targets"). Pure.
 */
public final class NfsMountCheck {
    private NfsMountCheck() {
    }

    /** What is at the mount point. */
    public enum State {
        /** An NFS mount of exactly the target's source. */
        MOUNTED,
        /** Nothing is mounted there (the bare directory). */
        NOT_MOUNTED,
        /** Something else is mounted there: another file system type or another NFS source. */
        OTHER
    }

    /**
     * @param state  what is there
     * @param reason for {@link State#NOT_MOUNTED} and {@link State#OTHER}: one line saying what is there and
     *               what to do; empty for {@link State#MOUNTED}
     */
    public record Verdict(State state, String reason) {
    }

    /**
     * @param mounts the mount table in file order (later entries are on top)
     * @param target the job's NFS target
     * @return the verdict for its mount point
     */
    public static Verdict check(List<MountTable.Entry> mounts, NfsTarget target) {
        Path mp = target.mountPoint().toAbsolutePath().normalize();
        Optional<MountTable.Entry> top = MountTable.topAt(mounts, mp);
        if (top.isEmpty()) {
            return new Verdict(State.NOT_MOUNTED, "nothing is mounted on " + mp + " (NFS " + target.source()
                    + " expected)" + (target.automount() ? "" : "; mount it (e.g. from fstab) or set automount: true"));
        }
        MountTable.Entry e = top.get();
        if (!e.fsType().equals("nfs") && !e.fsType().equals("nfs4")) {
            return new Verdict(State.OTHER, mp + " is " + e.fsType() + " " + e.source() + ", not NFS "
                    + target.source() + "; unmount it or change the job's target");
        }
        if (!sameSource(e.source(), target.source())) {
            return new Verdict(State.OTHER, mp + " is NFS " + e.source() + ", not " + target.source()
                    + "; unmount it or write that source under nfs:");
        }
        return new Verdict(State.MOUNTED, "");
    }

    /** Sources compared without trailing slashes on the export ({@code h:/x/} is {@code h:/x}). */
    static boolean sameSource(String mounted, String wanted) {
        return strip(mounted).equals(strip(wanted));
    }

    private static String strip(String s) {
        String t = s.replaceAll("/+$", "");
        return t.endsWith(":") ? t + "/" : t;
    }
}
