package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jheartbeat.director.topology.IpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb lvs check --show} and {@code --json}: what an ldirectord.cf was read as, on the seed's own file (port
 * 8080, {@code checkport}, {@code logfile}), compared line for line, so the text stays stable.
 */
class LvsShowTest {
    @TempDir
    Path dir;

    static Path seed8080() {
        Path rel = Path.of("director/src/test/resources/org/jheartbeat/director/seed-ldirectord-8080.cf");
        Path p = Path.of(System.getProperty("project.root", "..")).resolve(rel);
        return Files.exists(p) ? p : Path.of("..").resolve(rel);
    }

    @Test
    void theSeedsOwnFileIsShownWithEveryDefaultAndTheCheckPortOfEachReal() throws Exception {
        Path f = Files.copy(seed8080(), dir.resolve("ldirectord.cf"));
        HbRun r = HbRun.hb("lvs", "check", "--show", "--no-topology", f.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).startsWith(f + ": configuration OK (1 virtual service(s), 2 real server(s)");
        String realBlock = "        address = 198.18.0.2N\n        port = 8080\n        forward = gate\n"
                + "        method = LVS-DR, ipvsadm -g\n        weight = 1\n        lowerthreshold = 0\n"
                + "        upperthreshold = 0\n        check = connect 198.18.0.2N:80 within 20 s\n"
                + "        checkport = 80\n        request = (unset)\n        receive = (unset)\n";
        assertThat(r.out()).isEqualTo("# " + f + " as read, every default applied (hb lvs check --show)\n"
                + "autoreload = yes\ncallback = (unset)\ncheckinterval = 10\nemailalertfrom = (unset)\n"
                + "execute = (unset)\nfork = no\nlogfile = \"/var/log/ldirectord.log\"\nmaintenancedir = (unset)\n"
                + "readdquiescent = no\nsupervised = no\n\n"
                + "virtual = 198.18.0.100:8080    # line 12\n"
                + "    protocol = tcp\n    scheduler = lc\n    schedflags = (unset)\n    persistent = 90\n"
                + "    netmask = (unset)\n    ops = no\n    checktype = connect\n    service = http\n"
                + "    checkport = 80\n    request = (unset)\n    receive = (unset)\n    httpmethod = GET\n"
                + "    virtualhost = (unset)\n    login = (unset)\n    passwd = (unset)\n    database = (unset)\n"
                + "    secret = (unset)\n    checkcommand = /bin/true\n    checktimeout = 20\n"
                + "    negotiatetimeout = 20\n    checkinterval = 10\n    checkcount = 1\n    failurecount = 1\n"
                + "    quiescent = no\n    cleanstop = yes\n    fallback = (unset)\n    fallbackcommand = (unset)\n"
                + "    emailalert = (unset)\n    emailalertfreq = 0\n    emailalertstatus = all\n"
                + "    smtp = (unset)\n    monitorfile = (unset)\n    servicename = (unset)\n    comment = (unset)\n"
                + "    checkcafile = (unset)\n    resetcounts = no\n    slowstart = 0\n"
                + "    real = 198.18.0.21:8080 gate 1    # line 13\n" + realBlock.replace("2N", "21")
                + "    real = 198.18.0.22:8080 gate 1    # line 14\n" + realBlock.replace("2N", "22"));
    }

    @Test
    void jsonCarriesTheSameReadingWithNumbersAsNumbersAndNoQuotingByHand() throws Exception {
        Path f = Files.writeString(dir.resolve("w.cf"), "logfile=\"local0\"\nvirtual=198.18.0.100:80\n"
                + "    real=198.18.0.21:80 gate -w 5 \"/a b?x=1&y=<2>\", \"up\\d+\"\n"
                + "    real=198.18.0.22->198.18.0.23 masq 2 u:10\n    passwd=\"s3cret\"\n    service=http\n"
                + "    checktype=negotiate\n    request=\"/health\"\n    slowstart=30\n    resetcounts=yes\n");
        HbRun r = HbRun.hb("lvs", "check", "--json", f.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("s3cret");
        Map<String, Object> top = object(r.out());
        assertThat(((Map<?, ?>) top.get("global")).get("logfile")).isEqualTo("local0");
        Map<?, ?> v = (Map<?, ?>) ((List<?>) top.get("virtuals")).get(0);
        assertThat(v.get("virtual")).isEqualTo("198.18.0.100:80");
        assertThat(v.get("scheduler")).isEqualTo("wrr");
        assertThat(v.get("negotiatetimeout")).isEqualTo(30L);
        assertThat(v.get("passwd")).isEqualTo("(set)");
        assertThat(v.get("slowstart")).isEqualTo(30L);
        assertThat(v.get("resetcounts")).isEqualTo("yes");
        assertThat(v.get("netmask")).isNull();
        List<?> reals = (List<?>) v.get("reals");
        assertThat(reals).hasSize(3);
        Map<?, ?> first = (Map<?, ?>) reals.get(0);
        assertThat(first.get("weight")).isEqualTo(5L);
        assertThat(first.get("port")).isEqualTo(80L);
        assertThat(first.get("request")).isEqualTo("/a b?x=1&y=<2>");
        assertThat(first.get("receive")).isEqualTo("up\\d+");
        assertThat(first.get("check")).isEqualTo("negotiate 198.18.0.21:80 within 30 s");
        Map<?, ?> third = (Map<?, ?>) reals.get(2);
        assertThat(third.get("address")).isEqualTo("198.18.0.23");
        assertThat(third.get("forward")).isEqualTo("masq");
        assertThat(third.get("upperthreshold")).isEqualTo(10L);
        assertThat(third.get("request")).isEqualTo("/health");
    }

    @Test
    void aBadFileShowsNothingAndNamesTheLine() throws Exception {
        Path f = Files.writeString(dir.resolve("bad.cf"), "virtual=198.18.0.100:80\n    real=198.18.0.21:80 gate -w\n");
        HbRun r = HbRun.hb("lvs", "check", "--show", f.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith(f + ":2: real: -w must be followed by the weight");
        Path slow = Files.writeString(dir.resolve("slow.cf"), "virtual=198.18.0.100:80\n    real=198.18.0.21:80 gate\n"
                + "    slowstart=30s\n");
        HbRun s = HbRun.hb("lvs", "check", "--show", slow.toString());
        assertThat(s.code()).isEqualTo(2);
        assertThat(s.out()).isEmpty();
        assertThat(s.err()).startsWith(slow + ":3: slowstart must be a whole number of seconds from 0 (off) to 3600")
                .doesNotContain("Exception");
    }

    /** A JSON object read into maps, lists, strings, longs and nulls ({@link IpJson#tree}). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String json) throws Exception {
        Object tree = IpJson.tree(json);
        assertThat(tree).isInstanceOf(Map.class);
        return (Map<String, Object>) tree;
    }
}
