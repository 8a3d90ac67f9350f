package org.jheartbeat.sync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SyncConfigParserTest {
    private static final Path SRC = Path.of("sync.yaml");

    static final String GOOD = """
            state_dir: /var/lib/jhb/sync
            ssh: ssh -o BatchMode=yes -i '/etc/ha.d/sync key'
            nodes:
              node1: 198.18.1.1
              node2: 198.18.1.2
            jobs:
              web:
                group: 198.18.0.100
                paths: [/srv/web, /srv/mysql]
                target: peer
                schedule: "*/10 * * * * *"
                delete: true
                rsync_options: [--bwlimit=10m]
                require_mount: true
                max_loss: 0.25
                retries: 2
                retry_delay: 500ms
                timeout: 2h
              mail:
                group: labmail
                paths: /srv/mail
                target: /mnt/nfs/replica
            backups:
              drawer:
                label: JHB-BACKUP
                device: /dev/sdb1
                mount_point: /mnt/jhb-backup
                paths: [/srv/web, /srv/mail]
                keep: 3
                poll: 5s
                fsck: false
                rsync_options: [--exclude=*.tmp]
              other:
                uuid: 1234-ABCD
                mount_point: /mnt/other
                paths: [/srv/web]
            """;

    @Test
    void parsesEveryFieldOfAGoodFile() throws Exception {
        SyncConfig c = SyncConfigParser.parse(GOOD, SRC);
        assertThat(c.source()).isEqualTo(SRC);
        assertThat(c.stateDir()).isEqualTo(Path.of("/var/lib/jhb/sync"));
        assertThat(c.ssh()).containsExactly("ssh", "-o", "BatchMode=yes", "-i", "/etc/ha.d/sync key");
        assertThat(c.nodes()).isEqualTo(Map.of("node1", "198.18.1.1", "node2", "198.18.1.2"));
        assertThat(c.jobs()).hasSize(2);
        ReplicationJobSpec web = c.jobs().get(0);
        assertThat(web).isEqualTo(new ReplicationJobSpec("web", "198.18.0.100",
                List.of(Path.of("/srv/web"), Path.of("/srv/mysql")), Optional.empty(), "*/10 * * * * *", true,
                List.of("--bwlimit=10m"), true, 0.25, 2, Duration.ofMillis(500), Duration.ofHours(2), 7));
        ReplicationJobSpec mail = c.job("mail").orElseThrow();
        assertThat(mail).isEqualTo(new ReplicationJobSpec("mail", "labmail", List.of(Path.of("/srv/mail")),
                Optional.of(Path.of("/mnt/nfs/replica")), ReplicationJobSpec.DEFAULT_SCHEDULE, true, List.of(), false,
                ReplicationJobSpec.DEFAULT_MAX_LOSS, ReplicationJobSpec.DEFAULT_RETRIES,
                ReplicationJobSpec.DEFAULT_RETRY_DELAY, ReplicationJobSpec.DEFAULT_TIMEOUT, 19));
        assertThat(c.backups()).containsExactly(
                new BackupSpec("drawer", Optional.of("JHB-BACKUP"), Optional.empty(), Optional.of(Path.of("/dev/sdb1")),
                        Path.of("/mnt/jhb-backup"), List.of(Path.of("/srv/web"), Path.of("/srv/mail")), 3,
                        Duration.ofSeconds(5), false, List.of("--exclude=*.tmp"), 24),
                new BackupSpec("other", Optional.empty(), Optional.of("1234-ABCD"), Optional.empty(),
                        Path.of("/mnt/other"), List.of(Path.of("/srv/web")), BackupSpec.DEFAULT_KEEP,
                        BackupSpec.DEFAULT_POLL, true, List.of(), 33));
    }

    @Test
    void hooksAreOneShellLineEachWithTheirTimeout() throws Exception {
        SyncConfig c = SyncConfigParser.parse("""
                jobs:
                  db:
                    group: g
                    paths: [/srv/db]
                    target: /mnt/r
                    pre: mariadb-dump --single-transaction --all-databases >/srv/db/dump.sql.new && mv /srv/db/dump.sql.new /srv/db/dump.sql
                    post: rm -f /srv/db/dump.sql.new
                    hook_timeout: 90s
                  plain:
                    group: g
                    paths: [/srv/www]
                    target: /mnt/r
                """, SRC);
        ReplicationJobSpec db = c.job("db").orElseThrow();
        assertThat(db.pre()).contains("mariadb-dump --single-transaction --all-databases >/srv/db/dump.sql.new"
                + " && mv /srv/db/dump.sql.new /srv/db/dump.sql");
        assertThat(db.post()).contains("rm -f /srv/db/dump.sql.new");
        assertThat(db.hookTimeout()).isEqualTo(Duration.ofSeconds(90));
        ReplicationJobSpec plain = c.job("plain").orElseThrow();
        assertThat(plain.pre()).isEmpty();
        assertThat(plain.post()).isEmpty();
        assertThat(plain.hookTimeout()).isEqualTo(ReplicationJobSpec.DEFAULT_HOOK_TIMEOUT);
    }

    @Test
    void aHookOfSeveralLinesIsRefusedWithItsLine() {
        String yaml = "jobs:\n  web:\n    group: g\n    paths: [/a]\n    target: /r\n    pre: |\n      a\n      b\n";
        assertThatThrownBy(() -> SyncConfigParser.parse(yaml, SRC))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage("sync.yaml:6: job web: pre spans several lines; write one command (join with &&) or put"
                        + " the commands in a script and name it");
    }

    @Test
    void emptyFileMeansDefaultsAndNoJobs() throws Exception {
        SyncConfig c = SyncConfigParser.parse("# nothing yet\n", SRC);
        assertThat(c.stateDir()).isEqualTo(SyncConfig.DEFAULT_STATE_DIR);
        assertThat(c.ssh()).isEqualTo(SyncConfig.DEFAULT_SSH);
        assertThat(c.jobs()).isEmpty();
        assertThat(c.backups()).isEmpty();
    }

    @Test
    void readsAFileAndNamesItAsGivenInErrors(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("sync.yaml");
        Files.writeString(f, GOOD);
        assertThat(SyncConfigParser.parse(f).jobs()).extracting(ReplicationJobSpec::name).containsExactly("web", "mail");
        Files.writeString(f, "jobs:\n  web:\n    grup: x\n    paths: [/a]\n    target: /r\n");
        assertThatThrownBy(() -> SyncConfigParser.parse(f))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage(f + ":2: job web has no group; add \"group: KEY\" (the haresources group it follows)\n"
                        + f + ":3: unknown key [grup] in job web; did you mean group?")
                .satisfies(e -> {
                    assertThat(((SyncConfigException) e).line()).isEqualTo(2);
                    assertThat(((SyncConfigException) e).file()).isEqualTo(f);
                });
        assertThatThrownBy(() -> SyncConfigParser.parse(dir.resolve("missing.yaml")))
                .hasMessage(dir.resolve("missing.yaml") + ": no such file; create it or remove the sync configuration");
    }

    /**
     * A file with a problem in every section: every problem is reported at once, by line, each naming its
     * line; the entries with a problem are left out, and nothing of the file is returned.
     */
    @Test
    void everyProblemOfAFileIsReportedAtOnce(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("sync.yaml");
        Files.writeString(f, """
                state_dir: var/lib/jhb
                ssh: ssh -i 'key
                colour: blue
                nodes:
                  node1: not an ip!
                  node2: 198.18.1.2
                jobs:
                  web:
                    group: g
                    paths: [/srv/web]
                    target: /mnt/r
                    retries: -1
                    delete: maybe
                  db:
                    group: h
                    paths: [/srv/web/db]
                    target: /mnt/r
                    shedule: '* * * * *'
                  ok:
                    group: h
                    paths: [/srv/ok]
                    target: /mnt/r
                backups:
                  d:
                    mount_point: /mnt/b
                    paths: [/a]
                    keep: 0
                """);
        assertThatThrownBy(() -> SyncConfigParser.parse(f))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage(String.join("\n",
                        f + ":1: state_dir [var/lib/jhb] is not an absolute path; write it starting with /",
                        f + ":2: ssh: unterminated single quote; close the quote or quote the whole value",
                        f + ":3: unknown key [colour] at the top level; known keys: state_dir, ssh, nodes, jobs, backups",
                        f + ":5: nodes: node1: [not an ip!] is not an address or host name; write the node's"
                                + " crossover-link IP address",
                        f + ":12: job web: retries is -1; it must be at least 0",
                        f + ":13: job web: delete [maybe] is not a boolean; write true or false",
                        f + ":18: unknown key [shedule] in job db; did you mean schedule?",
                        f + ":24: backup d names no disk; add \"label: LABEL\" or \"uuid: UUID\"",
                        f + ":27: backup d: keep is 0; it must be at least 1"))
                .satisfies(e -> assertThat(((SyncConfigException) e).diagnostics())
                        .allMatch(org.jheartbeat.core.config.ConfigDiagnostic::isError).hasSize(9));
    }

    /** Overlapping paths are checked against the earlier jobs that parsed, and reported beside the other problems. */
    @Test
    void anOverlapIsReportedBesideTheOtherProblems() {
        String yaml = "jobs:\n  web:\n    group: g\n    paths: [/a]\n    target: /r\n"
                + "  db:\n    group: h\n    paths: [/a/sub, /b]\n    target: /r\n    timeout: 0s\n";
        assertThatThrownBy(() -> SyncConfigParser.parse(yaml, SRC))
                .hasMessage("sync.yaml:8: job db: path /a/sub overlaps /a, which is already replicated by job web"
                        + " (line 2); replicate each directory in one job only\n"
                        + "sync.yaml:10: job db: timeout is zero; give a positive duration such as 30s");
    }

    /** A key over YAML's 1024 characters is named as such, not "mapping values are not allowed here" (tryout). */
    @Test
    void aHugeKeyIsNamedAsSuch() {
        String key = "a".repeat(5000);
        assertThatThrownBy(() -> SyncConfigParser.parse("jobs:\n  web:\n    " + key + ": 1\n", Path.of("sync.yaml")))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage("sync.yaml:3: a key of 5000 characters; YAML keys are at most 1024 characters: is this"
                        + " line what you meant?");
    }

    /** A directory or a huge file named sync.yaml: one line saying what it is, not a YAML error (tryout). */
    @Test
    void aDirectoryOrAHugeFileIsNamedAsSuch(@TempDir Path dir) throws Exception {
        Path d = Files.createDirectory(dir.resolve("sync.yaml"));
        assertThatThrownBy(() -> SyncConfigParser.parse(d)).isInstanceOf(SyncConfigException.class)
                .hasMessage(d + ": is a directory; a file is expected");
        Path huge = dir.resolve("big.yaml");
        Files.writeString(huge, "#" + "a".repeat(5_000_000) + "\n");
        assertThatThrownBy(() -> SyncConfigParser.parse(huge)).isInstanceOf(SyncConfigException.class)
                .hasMessage(huge + ": is 5000002 bytes; config files are limited to 1048576 bytes: is this the"
                        + " right file?");
    }

    private static final String NODES = "nodes:\n  node1: 10.0.0.1\n  node2: 10.0.0.2\n";

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', textBlock = """
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    shedule: '* * * * *'\\n    target: /r\\n | 5 | unknown key [shedule] in job web; did you mean schedule?
            stat_dir: /x\\n | 1 | unknown key [stat_dir] at the top level; did you mean state_dir?
            colour: blue\\n | 1 | unknown key [colour] at the top level; known keys: state_dir, ssh, nodes, jobs, backups
            jobs:\\n  web:\\n    group: g\\n    paths: [srv/web]\\n    target: /r\\n | 4 | job web: path [srv/web] is not an absolute path; write it starting with /
            jobs:\\n  we b:\\n    group: g\\n    paths: [/a]\\n    target: /r\\n | 2 | job name [we b] has characters other than letters, digits, _ . -; rename it
            jobs:\\n  web:\\n    paths: [/a]\\n    target: /r\\n | 2 | job web has no group; add "group: KEY" (the haresources group it follows)
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    schedule: '*/5 * *'\\n    target: /r\\n | 5 | job web: schedule [*/5 * *] has 3 fields, expected 5 (minute hour day month weekday) or 6 (with leading seconds); write a cron expression such as "*/5 * * * *"
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    max_loss: 1.5\\n    target: /r\\n | 5 | job web: max_loss [1.5] is not a share between 0 and 1; write e.g. 0.5
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    retries: -1\\n    target: /r\\n | 5 | job web: retries is -1; it must be at least 0
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    retry_delay: 30\\n    target: /r\\n | 5 | job web: retry_delay [30] is not a duration; write a number and a unit: 500ms, 30s, 5m, 1h
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    delete: maybe\\n    target: /r\\n | 5 | job web: delete [maybe] is not a boolean; write true or false
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n | 2 | job web replicates to the peer but nodes: lists 0 node(s); list both nodes' crossover addresses under nodes:
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    target: /mnt/r\\n  db:\\n    group: h\\n    paths: [/b, /a/sub]\\n    target: /mnt/r\\n | 8 | job db: path /a/sub overlaps /a, which is already replicated by job web (line 2); replicate each directory in one job only
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    target: /a/replica\\n | 5 | job web: target /a/replica overlaps the source /a; put the target outside every source path
            ssh: ssh -i 'key\\n | 1 | ssh: unterminated single quote; close the quote or quote the whole value
            ssh: ''\\n | 1 | ssh: is empty; write the remote-shell command, e.g. ssh -o BatchMode=yes -o ConnectTimeout=5
            nodes:\\n  node1: ''\\n | 2 | nodes: node1 has no address; write "node1: ADDRESS" (its crossover-link address)
            backups:\\n  d:\\n    mount_point: /mnt/b\\n    paths: [/a]\\n | 2 | backup d names no disk; add "label: LABEL" or "uuid: UUID"
            backups:\\n  d:\\n    label: L\\n    uuid: U\\n    mount_point: /mnt/b\\n    paths: [/a]\\n | 4 | backup d has both label and uuid; keep one of them
            backups:\\n  d:\\n    label: L\\n    mount_point: /mnt/b\\n    paths: [/a]\\n    keep: 0\\n | 6 | backup d: keep is 0; it must be at least 1
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    target: /r\\n  web:\\n    group: g\\n    paths: [/b]\\n    target: /r\\n | 6 | jobs: web is given twice (also line 2); keep one
            jobs:\\n  web:\\n    group: g\\n    paths: [/srv/../etc]\\n    target: /r\\n | 4 | job web: path [/srv/../etc] is not a plain path (., .. or //); write it as /etc
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    schedule: '0 0 31 2 *'\\n    target: /r\\n | 5 | job web: schedule [0 0 31 2 *] never fires (no such date); write a cron expression such as "*/5 * * * *"
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    schedule: '@hourly'\\n    target: /r\\n | 5 | job web: schedule [@hourly]: cron macros like @hourly are not supported; write the fields, e.g. "0 * * * *" for hourly
            nodes:\\n  node1: not an ip!\\n | 2 | nodes: node1: [not an ip!] is not an address or host name; write the node's crossover-link IP address
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    target: /r\\n    pre: ''\\n | 6 | job web: pre is empty; give a shell command or remove the line
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    target: /r\\n    post: [a, b]\\n | 6 | job web: post must be one shell command on the same line, e.g. "post: /usr/local/sbin/db-dump"; join several with &&
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    target: /r\\n    hook_timeout: 0s\\n | 6 | job web: hook_timeout is zero; give a positive duration such as 30s
            jobs:\\n  web:\\n    group: g\\n    paths: [/a]\\n    target: /r\\n    pree: x\\n | 6 | unknown key [pree] in job web; did you mean pre?
            jobs:\\n  web:\\n    group: g\\n    paths: [/a\\n | 5 | YAML syntax error: expected ',' or ']', but got <stream end>; fix the indentation or quoting there
            """)
    void eachErrorHasItsLineAndOneMessage(String text, int line, String message) {
        String yaml = text.replace("\\n", "\n");
        assertThatThrownBy(() -> SyncConfigParser.parse(yaml, SRC))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage("sync.yaml:" + line + ": " + message)
                .extracting(e -> ((SyncConfigException) e).line()).isEqualTo(line);
    }

    @Test
    void peerJobWithBothNodesParses() throws Exception {
        SyncConfig c = SyncConfigParser.parse(NODES + "jobs:\n  web:\n    group: g\n    paths: [/a]\n", SRC);
        assertThat(c.jobs().get(0).toPeer()).isTrue();
        assertThat(c.jobs().get(0).line()).isEqualTo(5);
    }

    @Test
    void shellSplitHandlesQuotes() {
        assertThat(SyncConfigParser.shellSplit("ssh  -o 'A B' \"C \\\"D\\\"\" e\\ f"))
                .containsExactly("ssh", "-o", "A B", "C \"D\"", "e f");
    }

    @Test
    void durations() {
        assertThat(SyncConfigParser.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(SyncConfigParser.parseDuration("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(SyncConfigParser.parseDuration("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(SyncConfigParser.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
        assertThatThrownBy(() -> SyncConfigParser.parseDuration("1.5h")).isInstanceOf(IllegalArgumentException.class);
    }
}
