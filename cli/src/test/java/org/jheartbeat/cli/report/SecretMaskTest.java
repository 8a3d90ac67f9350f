package org.jheartbeat.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * Secrets of real configuration files are masked and everything else stays: same lines, same keys,
 * still parseable.
 */
class SecretMaskTest {
    /** The parameter names of StonithDevices' built-ins that these files use; other types are unknown. */
    static final Function<String, Optional<List<String>>> DEVICES = type -> switch (type) {
        case "nut" -> Optional.of(List.of("hostname", "ups", "username", "password"));
        case "apcsmart" -> Optional.of(List.of("ttydev", "hostlist"));
        case "fence_ipmilan" -> Optional.of(List.of("ip", "ipport", "username", "password", "password_script"));
        default -> Optional.empty();
    };

    static final String AUTHKEYS = """
            # authkeys: the cluster's shared key
            auth 2
            1 sha1 c0rrect-h0rse-battery-staple-4f9a
            #2 md5 old-key-from-2019-Qx81
            2 sha1 Xy7#pL9!zQ2rT5vW
            3 crc
            """;

    static final String HA_CF = """
            logfile /var/log/jheartbeat/ha-log
            keepalive 500ms
            deadtime 10
            ucast eth1 10.0.1.2
            node alpha
            node beta
            stonith_host alpha nut 10.0.0.50 rackups monuser Upsd-P4ss-7781
            stonith_host beta apcsmart /dev/ttyS1 alpha
            stonith_host * fence_ipmilan 10.0.0.61 623 ADMIN Ipmi-S3cret-99
            stonith_host * external/ipmi beta 10.0.0.62 ADMIN Ext-Ipmi-Pw-55 lan
            # stonith_host * nut 10.0.0.51 ups2 monuser Old-Ups-Pw-11
            auto_failback on
            """;

    static final String LDIRECTORD = """
            checktimeout=3
            checkinterval=5
            autoreload=yes
            quiescent=no

            virtual=192.168.6.240:3306
            \treal=192.168.6.2:3306 gate
            \treal=192.168.6.3:3306 gate
            \tservice=mysql
            \tscheduler=wrr
            \tlogin="ldirector"
            \tpasswd="My5ql-Ch3ck-Pw"
            \tdatabase="ldirectordb"
            \trequest="SELECT * FROM connectioncheck"

            virtual=192.168.6.240:1812
            \treal=192.168.6.4:1812 gate
            \tservice=radius
            \tprotocol=udp
            \tsecret = Rad1us-Shared-S3cret
            \tchecktype=negotiate
            """;

    static final String JHEARTBEAT_YAML = """
            metrics:
              listen:
                alpha: 192.168.1.1:9810
                beta: 192.168.1.2:9810
              token_file: /etc/ha.d/metrics.token
              tls_key_file: /etc/ha.d/metrics.key
            control:
              admin_group: haadmin
            alerts:
              smtp:
                host: mail.example.org
                user: cluster
                password: "Smtp-Pa55-w0rd"   # from the mail admin
                url: smtps://cluster:Url-Embedded-Pw@mail.example.org:465
              scripts:
                - path: /usr/local/sbin/page-oncall
                  env: {API_TOKEN: pager-t0ken-123, TEAM: ops}
            web:
              users:
                - name: alice
                  password: Al1ce-Web-Pw
                  api_key: ak-9f8e7d6c
              tls:
                private_key: |
                  -----BEGIN PRIVATE KEY-----
                  MIIEvQIBADANBgkqhkiG9w0BAQEFAASC
                  -----END PRIVATE KEY-----
                cert_file: /etc/ha.d/web.crt
            authkeys:
              crc_links: [eth1]
            """;

    static final String SYNC_YAML = """
            nodes: {alpha: 198.18.1.1, beta: 198.18.1.2}
            ssh: ssh -i /etc/ha.d/sync_key -o BatchMode=yes
            jobs:
              db:
                group: 198.18.0.100
                paths: [/srv/mysql]
                pre: mysqldump --user=backup --password=Dump-Pw-4422 --all-databases > /srv/mysql/dump.sql
            """;

    static final List<String> SECRETS = List.of("c0rrect-h0rse-battery-staple-4f9a", "old-key-from-2019-Qx81",
            "Xy7#pL9!zQ2rT5vW", "Upsd-P4ss-7781", "Ipmi-S3cret-99", "Ext-Ipmi-Pw-55", "Old-Ups-Pw-11", "My5ql-Ch3ck-Pw",
            "Rad1us-Shared-S3cret", "Smtp-Pa55-w0rd", "Url-Embedded-Pw", "pager-t0ken-123", "Al1ce-Web-Pw", "ak-9f8e7d6c",
            "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "Dump-Pw-4422");

    static String all() {
        return SecretMask.file("authkeys", AUTHKEYS, DEVICES) + SecretMask.file("ha.cf", HA_CF, DEVICES)
                + SecretMask.file("ldirectord.cf", LDIRECTORD, DEVICES)
                + SecretMask.file("jheartbeat.yaml", JHEARTBEAT_YAML, DEVICES)
                + SecretMask.file("sync.yaml", SYNC_YAML, DEVICES);
    }

    @Test
    void noSecretOfAnyFileIsLeft() {
        String masked = all();
        for (String s : SECRETS) {
            assertThat(masked).as("masked files").doesNotContain(s);
        }
    }

    @Test
    void authkeysKeepsItsLinesAndMethods() {
        assertThat(SecretMask.file("authkeys", AUTHKEYS, DEVICES)).isEqualTo("""
                # authkeys: the cluster's shared key
                auth 2
                1 sha1 <masked>
                #2 md5 <masked>
                2 sha1 <masked>
                3 crc
                """);
    }

    @Test
    void haCfMasksTheStonithPasswordsByTheDevicesParameterNames() {
        String m = SecretMask.file("ha.cf", HA_CF, DEVICES);
        assertThat(m.lines().toList()).hasSameSizeAs(HA_CF.lines().toList());
        assertThat(m).contains("logfile /var/log/jheartbeat/ha-log\n")
                .contains("stonith_host alpha nut 10.0.0.50 rackups monuser <masked>\n")
                .contains("stonith_host beta apcsmart /dev/ttyS1 alpha\n")
                .contains("stonith_host * fence_ipmilan 10.0.0.61 623 ADMIN <masked>\n")
                // a type this machine does not know: every parameter
                .contains("stonith_host * external/ipmi <masked> <masked> <masked> <masked> <masked>\n")
                .contains("# stonith_host * nut 10.0.0.51 ups2 monuser <masked>\n")
                .contains("node beta\n");
    }

    @Test
    void ldirectordCfMasksPasswdAndSecretKeepingTheRest() {
        String m = SecretMask.file("ldirectord.cf", LDIRECTORD, DEVICES);
        assertThat(m).contains("\tpasswd=<masked>\n").contains("\tsecret = <masked>\n")
                .contains("\tlogin=\"ldirector\"\n").contains("\treal=192.168.6.2:3306 gate\n")
                .contains("\trequest=\"SELECT * FROM connectioncheck\"\n");
        assertThat(m.lines().count()).isEqualTo(LDIRECTORD.lines().count());
    }

    @Test
    void yamlKeepsItsStructureAndParses() {
        String m = SecretMask.file("jheartbeat.yaml", JHEARTBEAT_YAML, DEVICES);
        assertThat(m.lines().count()).isEqualTo(JHEARTBEAT_YAML.lines().count());
        Map<String, Object> before = new Yaml().load(JHEARTBEAT_YAML);
        Map<String, Object> after = new Yaml().load(m);
        assertThat(keys(after)).isEqualTo(keys(before));
        assertThat(m).contains("    password: <masked>   # from the mail admin\n")
                .contains("    url: smtps://cluster:<masked>@mail.example.org:465\n")
                .contains("      env: {API_TOKEN: <masked>, TEAM: ops}\n")
                .contains("  token_file: /etc/ha.d/metrics.token\n")
                .contains("  tls_key_file: /etc/ha.d/metrics.key\n")
                .contains("      api_key: <masked>\n")
                .contains("    private_key: |\n      <masked>\n      <masked>\n      <masked>\n    cert_file:")
                .contains("    user: cluster\n");
        String s = SecretMask.file("sync.yaml", SYNC_YAML, DEVICES);
        assertThat(s).contains("--password=<masked> --all-databases").contains("ssh: ssh -i /etc/ha.d/sync_key");
        assertThat(keys(new Yaml().load(s))).isEqualTo(keys(new Yaml().load(SYNC_YAML)));
    }

    @Test
    void logLinesAndHaresourcesLoseSecretParameters() {
        assertThat(SecretMask.anyLine("node1 198.18.0.100 ocf:heartbeat:mysql::replication_passwd=Repl-Pw-1::"
                + "config=/etc/mysql/my.cnf")).isEqualTo("node1 198.18.0.100 ocf:heartbeat:mysql::replication_passwd="
                + "<masked>::config=/etc/mysql/my.cnf");
        assertThat(SecretMask.anyLine("2026/12/06_03:12:04.518 node1 hb[42]: info: running x --password='a b' y"))
                .isEqualTo("2026/12/06_03:12:04.518 node1 hb[42]: info: running x --password=<masked> y");
        assertThat(SecretMask.anyLine("keepalive=2 interface=eth0")).isEqualTo("keepalive=2 interface=eth0");
    }

    @Test
    void namesThatSayWhereASecretIsAreKept() {
        assertThat(SecretMask.isSecretName("password")).isTrue();
        assertThat(SecretMask.isSecretName("replication_passwd")).isTrue();
        assertThat(SecretMask.isSecretName("API_TOKEN")).isTrue();
        assertThat(SecretMask.isSecretName("syncauthkeys")).isTrue();
        assertThat(SecretMask.isSecretName("token_file")).isFalse();
        assertThat(SecretMask.isSecretName("password_script")).isFalse();
        assertThat(SecretMask.isSecretName("tls_key_file")).isFalse();
        assertThat(SecretMask.isSecretName("keepalive")).isFalse();
        assertThat(SecretMask.isSecretName("passive")).isFalse();
    }

    @SuppressWarnings("unchecked")
    private static List<String> keys(Object yaml) {
        List<String> out = new java.util.ArrayList<>();
        if (yaml instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                out.add(String.valueOf(k));
                keys(v).forEach(s -> out.add(k + "." + s));
            });
        } else if (yaml instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                int n = i;
                keys(l.get(i)).forEach(s -> out.add(n + "." + s));
            }
        }
        return out;
    }
}
