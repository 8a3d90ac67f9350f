package org.jheartbeat.core.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which of this node's resource groups the peer's haresources defines differently.
 * Such a <em>disputed</em> group is started by neither node until the files agree: with two
 * definitions of the same address, each node would otherwise run its own (Heartbeat 3.0.6 has no such
 * check; a mismatch there gives the same address on both nodes). Pure.
 *
 * <p>A local group {@code a} and a peer group {@code b} <em>conflict</em> when
 * <ul>
 *   <li>they have the same key but another preferred node or another definition, or</li>
 *   <li>they have different keys but claim a common resource identity (an address, a script with
 *       its arguments; see {@link GroupDigest}). This also covers a peer group absent here that
 *       claims one of our resources.</li>
 * </ul>
 * A group is disputed when it conflicts with any group of the other side. The relation is
 * symmetric, so both nodes find the same conflicts, each for its own groups; groups defined the same
 * on both sides (same key, preferred node and definition) and claiming nothing the other side puts
 * elsewhere are not disputed.
 */
public final class GroupAgreement {
    /** At most this many reasons are listed per group. */
    private static final int MAX_REASONS = 3;

    private GroupAgreement() {
    }

    /** One conflict: local group index, peer group index. */
    public record Conflict(int local, int peer) { }

    /**
     * Every conflicting pair between {@code local} and {@code peer} (both in file order), ordered by
     * local then peer index.
     */
    public static List<Conflict> conflicts(List<GroupDigest> local, List<GroupDigest> peer) {
        List<Conflict> out = new ArrayList<>();
        for (int i = 0; i < local.size(); i++) {
            for (int j = 0; j < peer.size(); j++) {
                if (conflict(local.get(i), peer.get(j))) {
                    out.add(new Conflict(i, j));
                }
            }
        }
        return out;
    }

    private static boolean conflict(GroupDigest a, GroupDigest b) {
        if (a.key().equals(b.key())) {
            return !a.preferredNode().equals(b.preferredNode()) || !a.definition().equals(b.definition());
        }
        for (String id : a.identities()) {
            if (b.identities().contains(id)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The disputed local groups and why, in words for logs and {@code hb status}.
     *
     * @param me           this node
     * @param local        this node's groups, in haresources order
     * @param peer         the peer node
     * @param peerGroups   what the peer's {@code cfg_groups} said, or null when it sent none (a
     *                     jheartbeat peer from before per-group digests: files are only compared whole, nothing
     *                     is disputed)
     * @param filesDiffer  whether the whole-haresources digests differ (when they are equal nothing
     *                     is disputed)
     * @return local group index → reason, e.g. {@code node2 names node2 as its preferred node}
     */
    public static SortedMap<Integer, String> disputed(NodeName me, List<ResourceGroupDecl> local, NodeName peer,
                                                      GroupDigest.PeerGroups peerGroups, boolean filesDiffer) {
        Objects.requireNonNull(local, "local");
        SortedMap<Integer, String> out = new TreeMap<>();
        if (!filesDiffer || peerGroups == null) {
            return out;
        }
        List<GroupDigest> mine = local.stream().map(GroupDigest::of).toList();
        String whole = null;
        if (peerGroups instanceof GroupDigest.PeerGroups.TooMany) {
            whole = "haresources differs and " + peer + "'s has too many groups to compare one by one";
        } else if (peerGroups instanceof GroupDigest.PeerGroups.Unreadable) {
            whole = "haresources differs and " + peer + "'s group list could not be read";
        } else if (GroupDigest.encode(mine).equals(GroupDigest.TOO_MANY)) {
            whole = "haresources differs and " + me + "'s has too many groups to compare one by one";
        }
        if (whole != null) {
            for (int i = 0; i < local.size(); i++) {
                out.put(i, whole);
            }
            return out;
        }
        List<GroupDigest> theirs = ((GroupDigest.PeerGroups.Listed) peerGroups).groups();
        Map<Integer, Set<String>> reasons = new TreeMap<>();
        for (Conflict c : conflicts(mine, theirs)) {
            GroupDigest a = mine.get(c.local());
            GroupDigest b = theirs.get(c.peer());
            Set<String> r = reasons.computeIfAbsent(c.local(), k -> new LinkedHashSet<>());
            if (a.key().equals(b.key())) {
                if (!a.preferredNode().equals(b.preferredNode())) {
                    r.add(peer + " names " + b.preferredNode() + " as its preferred node, " + me + " names "
                            + a.preferredNode());
                }
                if (!a.definition().equals(b.definition())) {
                    r.add("its resources differ on " + peer);
                }
            } else {
                Map<String, String> named = GroupDigest.identities(local.get(c.local()));
                for (Map.Entry<String, String> id : named.entrySet()) {
                    if (b.identities().contains(id.getKey())) {
                        r.add(id.getValue() + " is in group " + b.key() + " on " + peer);
                    }
                }
            }
        }
        reasons.forEach((i, r) -> {
            List<String> list = new ArrayList<>(r);
            String text = String.join("; ", list.subList(0, Math.min(MAX_REASONS, list.size())));
            out.put(i, list.size() > MAX_REASONS ? text + "; and " + (list.size() - MAX_REASONS) + " more" : text);
        });
        return out;
    }
}
