package org.jheartbeat.sync.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.jheartbeat.sync.TestClock;
import org.jheartbeat.sync.config.BackupProfile;
import org.jheartbeat.sync.config.BackupSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A whole-system backup ({@code profile: system}) of a loop image posing as a root file system, with
 * /proc mounted inside it, a nested tmpfs that must be skipped, and the backup disk mounted inside it;
 * then the restore procedure of docs/design/sync.md onto an empty image, compared file by file (type,
 * mode, owner, group, symlink target, content, hard-link groups) and by the recorded layout. Root only.
 */
class SystemBackupIT {
    private Path tmp;
    private Path root;
    private final List<LoopImage> images = new ArrayList<>();
    private final List<Path> mounts = new ArrayList<>();
    private BackupService svc;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0,
                "loop devices and mount need root");
        tmp = Files.createTempDirectory(Path.of("/tmp"), "jhbt-sysbk");
        root = tmp.resolve("root");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (tmp == null) {
            return;
        }
        if (svc != null) {
            svc.close();
        }
        for (int i = mounts.size() - 1; i >= 0; i--) {
            LoopImage.run("umount", mounts.get(i).toString());
        }
        for (LoopImage i : images) {
            i.close();
        }
        LoopImage.run("rm", "-rf", "--one-file-system", tmp.toString());
    }

    private LoopImage image(String name, String lbl, int mb) throws Exception {
        LoopImage i = new LoopImage(tmp.resolve(name + ".img"), lbl, mb);
        images.add(i);
        i.attach();
        return i;
    }

    private void mount(String... argv) throws Exception {
        Path at = Path.of(argv[argv.length - 1]);
        Files.createDirectories(at);
        List<String> cmd = new ArrayList<>(List.of("mount"));
        cmd.addAll(List.of(argv));
        LoopImage.sh(cmd.toArray(String[]::new));
        mounts.add(at);
    }

    private static void sh(String... argv) throws Exception {
        LoopImage.sh(argv);
    }

    private Path write(String rel, String text) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    /** A small system: modes, owners, set-id bits, sticky /tmp, symlinks, a hard-link pair, an xattr, and run-time junk. */
    private void buildRoot(String uuid) throws Exception {
        write("etc/fstab", "UUID=" + uuid + " / ext4 errors=remount-ro 0 1\n");
        write("etc/hostname", "townhall1\n");
        write("etc/shadow", "root:*:20000:0:99999:7:::\n");
        sh("chmod", "0640", root.resolve("etc/shadow").toString());
        sh("chown", "0:42", root.resolve("etc/shadow").toString());
        write("usr/bin/tool", "#!/bin/sh\necho tool\n");
        sh("chmod", "0755", root.resolve("usr/bin/tool").toString());
        write("usr/bin/passwd", "suid\n");
        sh("chmod", "4755", root.resolve("usr/bin/passwd").toString());
        Files.createLink(root.resolve("usr/bin/tool-hardlink"), root.resolve("usr/bin/tool"));
        Files.createSymbolicLink(root.resolve("bin"), Path.of("usr/bin"));
        Files.createSymbolicLink(root.resolve("etc/localtime"), Path.of("/usr/share/zoneinfo/Etc/UTC"));
        write("var/lib/mysql/ibdata1", "database pages\n");
        sh("chown", "-R", "1234:5678", root.resolve("var/lib/mysql").toString());
        sh("chmod", "0750", root.resolve("var/lib/mysql").toString());
        Files.createDirectories(root.resolve("srv/share"));
        sh("chmod", "2775", root.resolve("srv/share").toString());
        sh("python3", "-c", "import os,sys; os.setxattr(sys.argv[1], 'user.jhb', b'kept')",
                root.resolve("usr/bin/tool").toString());
        Files.createDirectories(root.resolve("tmp"));
        sh("chmod", "1777", root.resolve("tmp").toString());
        write("tmp/session", "junk\n");
        write("var/tmp/junk", "junk\n");
        write("run/daemon.pid", "42\n");
        write("var/cache/apt/archives/mariadb.deb", "package\n");
        write("var/cache/apt/archives/partial/x.deb", "half\n");
        write("lost+found/#1234", "orphan\n");
        Files.createDirectories(root.resolve("dev"));
        Files.createDirectories(root.resolve("sys"));
    }

    @Test
    void aWholeSystemBackupRestoresOntoAnEmptyDiskWithTheSameTreeAndLayout() throws Exception {
        String id = UUID.randomUUID().toString().substring(0, 6);
        String rootLabel = "JHBT-R" + id;
        LoopImage rootDisk = image("rootfs", rootLabel, 32);
        mount(rootDisk.device(), root.toString());
        String uuid = LoopImage.sh("blkid", "-c", "/dev/null", "-o", "value", "-s", "UUID", rootDisk.device()).strip();
        buildRoot(uuid);
        mount("-t", "proc", "proc", root.resolve("proc").toString());
        mount("-t", "tmpfs", "-o", "size=1m", "jhbt-nested", root.resolve("mnt/nested").toString());
        Files.writeString(root.resolve("mnt/nested/other-fs"), "on another file system\n");
        Files.createDirectories(root.resolve("mnt/backup"));

        String diskLabel = "JHBT-B" + id;
        image("drawer", diskLabel, 32);
        BackupSpec spec = new BackupSpec("system", Optional.of(diskLabel), Optional.empty(), Optional.empty(),
                root.resolve("mnt/backup"), List.of(root), 3, Duration.ofSeconds(10), true, List.of(), 0,
                Optional.empty(), BackupProfile.SYSTEM);
        svc = new BackupService(new SyncConfig(null, tmp.resolve("state"), SyncConfig.DEFAULT_SSH, Map.of(), List.of(),
                List.of(spec)), new TestClock(Instant.parse("2026-12-06T03:00:00Z")));
        BackupOutcome o = svc.runNow("system");
        assertThat(o.result()).as(o.message()).isEqualTo(BackupResult.OK);
        assertThat(o.message()).contains("layout recorded").endsWith("verified");
        SnapshotComparison cmp = svc.verify("system", Optional.empty());
        assertThat(cmp.differences()).as("verify with the same excludes").isEmpty();
        Files.writeString(root.resolve("etc/hostname"), "changed\n");
        assertThat(svc.verify("system", Optional.empty()).differences())
                .containsExactly("changed: " + root.resolve("etc/hostname"));
        Files.writeString(root.resolve("etc/hostname"), "townhall1\n");

        Path inspect = tmp.resolve("inspect");
        LoopImage drawer = images.get(1);
        drawer.mountRo(inspect);
        mounts.add(inspect);
        Path base = inspect.resolve("jheartbeat/system");
        Path snap = base.resolve("2026-12-06T030000Z").resolve(root.toString().substring(1));
        assertThat(Trees.children(snap.resolve("proc"))).as("/proc mounted inside: directory kept, empty").isEmpty();
        assertThat(Trees.children(snap.resolve("mnt/nested"))).as("nested file system skipped").isEmpty();
        assertThat(Trees.children(snap.resolve("mnt/backup"))).as("the backup disk's own mount point").isEmpty();
        for (String empty : List.of("tmp", "var/tmp", "run", "var/cache/apt/archives/partial")) {
            assertThat(Trees.children(snap.resolve(empty))).as(empty).isEmpty();
        }
        assertThat(snap.resolve("var/cache/apt/archives/mariadb.deb")).doesNotExist();
        assertThat(snap.resolve("lost+found")).doesNotExist();

        Map<String, String> layout = block(Files.readString(base.resolve("2026-12-06T030000Z.layout/layout.txt")));
        assertThat(layout).containsEntry("source", root.toString()).containsEntry("device", rootDisk.device())
                .containsEntry("type", "ext4").containsEntry("uuid", uuid).containsEntry("label", rootLabel)
                .containsEntry("mount_point", root.toString());
        assertThat(layout.get("partition_table")).startsWith("none: sfdisk -d " + rootDisk.device() + ": ");
        assertThat(Files.readString(base.resolve("2026-12-06T030000Z.layout/lsblk.json")))
                .contains("\"path\": \"" + rootDisk.device() + "\"");

        // the documented restore: an empty disk, mkfs with the recorded type, UUID and label, rsync back
        LoopImage fresh = image("new-disk", "JHBT-X" + id, 32);
        sh("mkfs." + layout.get("type"), "-q", "-F", "-U", layout.get("uuid"), "-L", layout.get("label"), fresh.device());
        Path restored = tmp.resolve("restored");
        mount(fresh.device(), restored.toString());
        sh("rsync", "-aHAX", "--numeric-ids", snap + "/", restored + "/");

        Map<String, String> blkid = LayoutRecord.export(LoopImage.sh("blkid", "-c", "/dev/null", "-o", "export",
                fresh.device()));
        assertThat(blkid).containsEntry("UUID", uuid).containsEntry("LABEL", rootLabel).containsEntry("TYPE", "ext4");
        TreeMap<String, String> want = tree(root);
        assertThat(want).containsKeys("bin", "usr/bin/passwd", "etc/localtime", "proc", "mnt/nested");
        assertThat(tree(restored)).isEqualTo(want);
        assertThat(hardLinkGroups(restored)).isEqualTo(hardLinkGroups(root))
                .contains(new TreeSet<>(List.of("usr/bin/tool", "usr/bin/tool-hardlink")));
        assertThat(LoopImage.sh("python3", "-c", "import os,sys; print(os.getxattr(sys.argv[1], 'user.jhb').decode())",
                restored.resolve("usr/bin/tool").toString()).strip()).as("xattrs kept (-AX)").isEqualTo("kept");
    }

    /** The first block of layout.txt as a map. */
    private static Map<String, String> block(String text) {
        Map<String, String> out = new TreeMap<>();
        for (String l : text.split("\n\n")[1].split("\n")) {
            out.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1));
        }
        return out;
    }

    /**
     * Every entry under a tree as {@code relative path -> type mode uid:gid target-or-digest}, leaving out what
     * the system profile leaves out (contents of /proc, nested mounts, run-time and cache directories) and
     * lost+found (mkfs makes its own).
     */
    private static TreeMap<String, String> tree(Path top) throws Exception {
        TreeMap<String, String> out = new TreeMap<>();
        {
            for (Path p : entries(top)) {
                String rel = top.relativize(p).toString();
                int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
                String owner = Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS) + ":"
                        + Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS);
                String what;
                if (Files.isSymbolicLink(p)) {
                    what = "-> " + Files.readSymbolicLink(p);
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    what = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
                } else {
                    what = "dir";
                }
                out.put(rel, Integer.toOctalString(mode) + " " + owner + " " + what);
            }
        }
        return out;
    }

    /** The entries of a tree (not itself) without the subtrees the system profile leaves out, nor lost+found. */
    private static List<Path> entries(Path top) throws IOException {
        List<String> skipUnder = List.of("proc", "mnt/nested", "mnt/backup", "tmp", "var/tmp", "run",
                "var/cache/apt/archives/partial", "dev", "sys");
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(top, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String rel = top.relativize(dir).toString();
                if (rel.equals("lost+found")) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                if (!rel.isEmpty()) {
                    out.add(dir);
                }
                return skipUnder.contains(rel) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (!file.toString().endsWith(".deb")) {
                    out.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return out;
    }

    /** Sets of paths sharing an inode (more than one link), under a tree on one file system. */
    private static List<TreeSet<String>> hardLinkGroups(Path top) throws Exception {
        Map<Object, TreeSet<String>> byInode = new TreeMap<>();
        {
            for (Path p : entries(top)) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                        && ((Number) Files.getAttribute(p, "unix:nlink")).intValue() > 1) {
                    long ino = ((Number) Files.getAttribute(p, "unix:ino")).longValue();
                    byInode.computeIfAbsent(ino, k -> new TreeSet<>()).add(top.relativize(p).toString());
                }
            }
        }
        List<TreeSet<String>> out = new ArrayList<>(byInode.values());
        out.sort((a, b) -> a.first().compareTo(b.first()));
        return out;
    }
}
