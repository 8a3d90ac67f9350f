package org.jheartbeat.director.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;
import org.junit.jupiter.api.Test;

/**
 * The {@code ipvsadm -L -n} layout byte for byte as {@code shared/facts/lvs.md} §4.2 gives it
 * (the facts' example, addresses moved to 198.18.0.0/15, plus a UDP {@code ops} and a tunnel real).
 * The expected text is written out literally, trailing blanks included.
 */
class IpvsadmTextTest {

    static final String LISTING = ""
            + "IP Virtual Server version 1.2.1 (size=4096)\n"
            + "Prot LocalAddress:Port Scheduler Flags\n"
            + "  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n"
            + "TCP  198.18.6.240:80 wrr persistent 600 mask 255.255.255.0\n"
            + "  -> 198.18.6.2:80                Route   1      12         3         \n"
            + "  -> 198.18.6.3:80                Route   0      0          7         \n"
            + "UDP  198.18.6.53:53 rr ops\n"
            + "  -> 198.18.6.4:53                Masq    2      0          0         \n"
            + "FWM  1 wlc\n"
            + "  -> 198.18.6.5:0                 Tunnel  100    1234567    0         \n";

    static Endpoint ep(String host, int port) throws Exception {
        return new Endpoint(InetAddress.getByName(host), port);
    }

    static Endpoint epQuiet(String host, int port) {
        try {
            return ep(host, port);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static TableSnapshot example() throws Exception {
        ServiceKey tcp = ServiceKey.of(Protocol.TCP, ep("198.18.6.240", 80));
        ServiceKey udp = ServiceKey.of(Protocol.UDP, ep("198.18.6.53", 53));
        ServiceKey fwm = ServiceKey.fwmark(1, false);
        // services and reals deliberately out of order: the listing sorts them
        return new TableSnapshot(List.of(
                new TableService(new ServiceSpec(fwm, "wlc", Optional.empty(), Optional.empty(), false,
                        Optional.empty()), List.of(new TableReal(new RealSpec(ep("198.18.6.5", 0), Forward.IPIP, 100,
                        0, 0), 1234567, 0, new Counters(123456789L, 5, 6, 1_500_000_000L, 200_000_000_000_000L),
                        Counters.ZERO)), Counters.ZERO, Counters.ZERO),
                new TableService(new ServiceSpec(tcp, "wrr", Optional.of(600), Optional.of("255.255.255.0"), false,
                        Optional.empty()), List.of(
                        new TableReal(new RealSpec(ep("198.18.6.2", 80), Forward.GATE, 1, 0, 0), 12, 3,
                                new Counters(15, 100, 90, 5000, 4000), new Counters(1, 2, 3, 4, 5)),
                        new TableReal(new RealSpec(ep("198.18.6.3", 80), Forward.GATE, 0, 0, 0), 0, 7,
                                Counters.ZERO, Counters.ZERO)),
                        new Counters(15, 100, 90, 5000, 4000), new Counters(1, 2, 3, 4, 5)),
                new TableService(new ServiceSpec(udp, "rr", Optional.empty(), Optional.empty(), true,
                        Optional.empty()), List.of(new TableReal(new RealSpec(ep("198.18.6.4", 53), Forward.MASQ, 2,
                        0, 0), 0, 0, Counters.ZERO, Counters.ZERO)), Counters.ZERO, Counters.ZERO)),
                List.of());
    }

    static TableSnapshot sorted(TableSnapshot t) {
        IpvsTable m = IpvsTable.of(t);
        // keep figures: rebuild in listing order from the original services
        List<TableService> out = new java.util.ArrayList<>();
        for (ServiceKey k : m.serviceKeys()) {
            TableService s = t.service(k).orElseThrow();
            List<TableReal> rs = new java.util.ArrayList<>(s.reals());
            rs.sort((a, b) -> a.spec().endpoint().compareTo(b.spec().endpoint()));
            out.add(new TableService(s.spec(), rs, s.stats(), s.rate()));
        }
        return new TableSnapshot(out, t.connections());
    }

    @Test
    void theListingIsIpvsadmsLayoutByteForByte() throws Exception {
        String text = IpvsadmText.list(sorted(example()), ListView.DEFAULT);
        assertThat(text).isEqualTo(LISTING);
        String[] lines = text.split("\n");
        // the columns line up: Forward at offset 34, Weight 42, ActiveConn 49, InActConn 60
        assertThat(lines[2].indexOf("Forward")).isEqualTo(34);
        assertThat(lines[4].indexOf("Route")).isEqualTo(34);
        assertThat(lines[2].indexOf("InActConn")).isEqualTo(60);
        assertThat(lines[4]).hasSize(70);
    }

    @Test
    void statsAndRateUseThe33WideNameAndTheNineWideScaler() throws Exception {
        String stats = IpvsadmText.list(sorted(example()), ListView.STATS);
        assertThat(stats).startsWith("IP Virtual Server version 1.2.1 (size=4096)\n"
                + "Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes\n"
                + "  -> RemoteAddress:Port\n"
                + "TCP  198.18.6.240:80                    15      100       90     5000     4000\n"
                + "  -> 198.18.6.2:80                      15      100       90     5000     4000\n");
        assertThat(stats).endsWith("  -> 198.18.6.5:0                  123456K        5        6    1500M     200T\n");
        String rate = IpvsadmText.list(sorted(example()), ListView.RATE);
        assertThat(rate).contains("Prot LocalAddress:Port                 CPS    InPPS   OutPPS    InBPS   OutBPS\n"
                + "  -> RemoteAddress:Port\n"
                + "TCP  198.18.6.240:80                     1        2        3        4        5\n");
        assertThat(IpvsadmText.largeNumber(99_999_999)).isEqualTo(" 99999999");
        assertThat(IpvsadmText.largeNumber(100_000_000)).isEqualTo("  100000K");
        assertThat(IpvsadmText.largeNumber(99_999_999_999L)).isEqualTo("   99999M");
        assertThat(IpvsadmText.largeNumber(100_000_000_000L)).isEqualTo("     100G");
    }

    @Test
    void connectionsListHasIpvsadmsTwoHeaderLines() {
        TableSnapshot t = new TableSnapshot(List.of(), List.of(new ConnectionEntry("TCP", 893, "ESTABLISHED",
                "198.18.0.10:40000", "198.18.0.100:80", "198.18.0.21:80")));
        assertThat(IpvsadmText.connections(t)).isEqualTo("IPVS connection entries\n"
                + "pro expire state       source             virtual            destination\n"
                + "TCP 14:53  ESTABLISHED 198.18.0.10:40000  198.18.0.100:80    198.18.0.21:80\n");
    }

    @Test
    void listingSaveAndFiguresReadBackToTheSameTable() throws Exception {
        TableSnapshot t = sorted(example());
        TableSnapshot listed = IpvsadmText.readList(IpvsadmText.list(t, ListView.DEFAULT));
        assertThat(IpvsadmText.list(listed, ListView.DEFAULT)).isEqualTo(LISTING);
        TableSnapshot saved = IpvsadmText.readSave(IpvsadmText.save(t));
        assertThat(IpvsadmText.save(saved)).isEqualTo(IpvsadmText.save(t));
        assertThat(IpvsadmText.save(t)).startsWith("-A -t 198.18.6.240:80 -s wrr -p 600 -M 255.255.255.0\n"
                + "-a -t 198.18.6.240:80 -r 198.18.6.2:80 -g -w 1\n");
        TableSnapshot withStats = IpvsadmText.withFigures(listed, IpvsadmText.list(t, ListView.STATS),
                ListView.STATS);
        assertThat(withStats.services().get(0).reals().get(0).stats()).isEqualTo(new Counters(15, 100, 90, 5000,
                4000));
        assertThat(IpvsadmText.json(withStats)).startsWith("{\"services\":[{\"protocol\":\"tcp\",\"address\":"
                + "\"198.18.6.240\",\"port\":80,\"scheduler\":\"wrr\",\"persistent\":600,\"netmask\":\"255.255.255.0\"");
    }

    @Test
    void commandsAreWrittenAsLdirectordWritesThem() throws Exception {
        ServiceKey k = ServiceKey.of(Protocol.TCP, ep("198.18.0.100", 80));
        RealSpec r = new RealSpec(ep("198.18.0.21", 80), Forward.GATE, 1, 0, 0);
        assertThat(new TableCommand.AddService(new ServiceSpec(k, "lc", Optional.of(90), Optional.empty(), false,
                Optional.empty())).commandLine()).isEqualTo("ipvsadm -A -t 198.18.0.100:80 -s lc -p 90");
        assertThat(new TableCommand.SetReal(k, r, false, true).commandLine())
                .isEqualTo("ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1");
        assertThat(new TableCommand.SetReal(k, r.withWeight(0), true, false).commandLine())
                .isEqualTo("ipvsadm -e -t 198.18.0.100:80 -r 198.18.0.21:80 -g -w 0");
        assertThat(new TableCommand.DeleteReal(k, r.endpoint()).commandLine())
                .isEqualTo("ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.21:80");
        assertThat(new TableCommand.DeleteService(ServiceKey.fwmark(3, true)).commandLine())
                .isEqualTo("ipvsadm -D -f 3 -6");
        for (TableCommand c : List.of(new TableCommand.SetReal(k, r, true, true), new TableCommand.DeleteReal(k,
                r.endpoint()), new TableCommand.DeleteService(k))) {
            assertThat(IpvsadmSyntax.parse(c.args())).contains(c);
        }
    }

    @Test
    void malformedIpvsadmOutputIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> IpvsadmText.readList("a\nb\nc\nXYZ 1.2.3.4:80 rr\n"))
                .isInstanceOf(IpvsadmText.FormatException.class).hasMessageContaining("unknown protocol");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> IpvsadmText.readSave("-Q -t 1.2.3.4:80\n"))
                .isInstanceOf(IpvsadmText.FormatException.class);
    }
}
