package org.jheartbeat.sync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code target: {nfs: ...}} in sync.yaml: the shape, its defaults, and every mistake with its line. */
class NfsTargetConfigTest {
    private static final Path FILE = Path.of("/etc/ha.d/sync.yaml");

    @Test
    void anNfsTargetIsReadWithItsDefaults() throws Exception {
        SyncConfig cfg = SyncConfigParser.parse("""
                jobs:
                  web:
                    group: g
                    paths: [/srv/web]
                    target: {nfs: 198.18.1.2:/export/web/, mount: /mnt/web, options: [vers=4.2, soft, timeo=50]}
                  mail:
                    group: h
                    paths: [/srv/mail]
                    target:
                      nfs: "[fd00::2]:/export/mail"
                      mount: /mnt/mail
                      timeout: 3s
                      automount: false
                """, FILE);
        ReplicationJobSpec web = cfg.jobs().get(0);
        assertThat(web.nfs()).contains(new NfsTarget("198.18.1.2", "/export/web", Path.of("/mnt/web"),
                List.of("vers=4.2", "soft", "timeo=50"), Duration.ofSeconds(10), true));
        assertThat(web.targetPath()).contains(Path.of("/mnt/web"));
        assertThat(web.toPeer()).isFalse();
        assertThat(web.nfs().get().source()).isEqualTo("198.18.1.2:/export/web");
        assertThat(web.nfs().get().mountOptions()).isEqualTo("vers=4.2,soft,timeo=50");
        assertThat(web.nfs().get().port()).isEqualTo(2049);
        NfsTarget mail = cfg.jobs().get(1).nfs().orElseThrow();
        assertThat(mail.host()).isEqualTo("fd00::2");
        assertThat(mail.timeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(mail.automount()).isFalse();
        assertThat(SyncConfigParser.parse("jobs: {x: {group: g, paths: [/a], target: /mnt/x}}", FILE).jobs().get(0)
                .nfs()).isEqualTo(Optional.empty());
    }

    @Test
    void everyMistakeIsOneLineWithItsLineNumberAndNoJobIsKept() {
        String text = """
                jobs:
                  web:
                    group: g
                    paths: [/srv/web]
                    target:
                      nfs: 198.18.1.2/export/web
                      mount: srv/mnt
                      options: ["vers=4.2,soft", vers=2]
                      timeout: soon
                      automout: true
                  db:
                    group: g
                    paths: [/srv/db]
                    target: {nfs: 198.18.1.2:/export/db, mount: /srv/db/replica}
                  mail:
                    group: g
                    paths: [/srv/mail]
                    target: {mount: /mnt/mail}
                """;
        assertThatThrownBy(() -> SyncConfigParser.parse(text, FILE))
                .isInstanceOfSatisfying(SyncConfigException.class, e -> assertThat(e.getMessage().split("\n"))
                        .containsExactly(
                                FILE + ":6: job web: target: nfs [198.18.1.2/export/web] is not SERVER:/EXPORT;"
                                        + " write e.g. nfs: 198.18.1.2:/export/web",
                                FILE + ":7: job web: target: mount [srv/mnt] is not an absolute path;"
                                        + " write it starting with /",
                                FILE + ":8: job web: target: options: [vers=4.2,soft] is not one mount option;"
                                        + " write each as its own item, e.g. [vers=4.2, soft, timeo=50]",
                                FILE + ":8: job web: target: options: [vers=2] is not an NFS version this job can"
                                        + " check; write vers=3, vers=4, vers=4.1 or vers=4.2",
                                FILE + ":9: job web: target: timeout [soon] is not a duration; write a number and"
                                        + " a unit: 500ms, 30s, 5m, 1h",
                                FILE + ":10: unknown key [automout] in job web: target; did you mean automount?",
                                FILE + ":14: job db: target: mount /srv/db/replica overlaps the source /srv/db;"
                                        + " mount the export outside every source path",
                                FILE + ":18: job mail: target has no nfs: server and export; write e.g. {nfs:"
                                        + " 198.18.1.2:/export/web, mount: /mnt/web} (or target: peer, or target:"
                                        + " /abs/path)"));
    }
}
