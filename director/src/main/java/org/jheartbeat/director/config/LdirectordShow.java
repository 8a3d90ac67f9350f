package org.jheartbeat.director.config;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.control.JsonText;

/**
 * What an ldirectord.cf was read as, for {@code hb lvs check --show} (ldirectord's {@code -d} prints its own
 * reading as debug lines; this is the stable equivalent): the globals and, for each virtual service, every
 * setting with its default applied, and each real with its resolved address, port, method, weight and what its
 * check talks to. Text in ldirectord.cf's own {@code key = value} words, or JSON with the same names.
 *
 * <p>The text is stable: one setting per line, always the same settings in the same order, {@code (unset)} for
 * an absent optional one; {@code passwd} and {@code secret} are shown as {@code (set)}, never their values, so
 * the output can be pasted into a ticket.
 */
public final class LdirectordShow {
    private static final String UNSET = "(unset)";
    private static final String HIDDEN = "(set)";

    private LdirectordShow() {
    }

    /** How a value is written: as is, in ldirectord.cf's quotes (raw in JSON), or as a JSON number. */
    private enum Kind { WORD, QUOTED, NUMBER }

    /** One setting: its ldirectord.cf name and its value (absent: unset). */
    private record Setting(String name, Optional<String> value, Kind kind) {
        static Setting of(String name, String value) {
            return new Setting(name, Optional.of(value), Kind.WORD);
        }

        static Setting of(String name, long value) {
            return new Setting(name, Optional.of(Long.toString(value)), Kind.NUMBER);
        }

        static Setting opt(String name, Optional<?> value) {
            return new Setting(name, value.map(String::valueOf), Kind.WORD);
        }

        static Setting num(String name, Optional<Integer> value) {
            return new Setting(name, value.map(String::valueOf), Kind.NUMBER);
        }

        static Setting quoted(String name, Optional<String> value) {
            return new Setting(name, value, Kind.QUOTED);
        }

        String text() {
            return value.map(v -> kind == Kind.QUOTED ? "\"" + v + "\"" : v).orElse(UNSET);
        }
    }

    /** The text form: globals first, then each virtual block with its reals, blocks separated by a blank line. */
    public static String text(LdirectordConfig c) {
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(c.file()).append(" as read, every default applied (hb lvs check --show)\n");
        for (Setting s : globals(c.globals())) {
            line(sb, "", s);
        }
        for (VirtualService v : c.virtuals()) {
            sb.append('\n').append(v.key().ipv6() && v.key().protocol() != Protocol.FWM ? "virtual6" : "virtual")
                    .append(" = ").append(v.key().address()).append("    # line ").append(v.line()).append('\n');
            for (Setting s : virtual(v)) {
                line(sb, "    ", s);
            }
            for (RealServer r : v.reals()) {
                sb.append("    ").append(r.endpoint().isIpv6() ? "real6" : "real").append(" = ")
                        .append(r.endpoint()).append(' ').append(r.forward().configName()).append(' ')
                        .append(r.weight()).append("    # line ").append(r.line()).append('\n');
                for (Setting s : real(v, r)) {
                    line(sb, "        ", s);
                }
            }
        }
        return sb.toString();
    }

    /** The JSON form: {@code {"file":…,"global":{…},"virtuals":[{…,"reals":[{…}]}]}}, unset values as null. */
    public static String json(LdirectordConfig c) {
        return JsonText.write(g -> {
            g.writeStartObject();
            g.writeStringField("file", c.file().toString());
            g.writeObjectFieldStart("global");
            fields(g, globals(c.globals()));
            g.writeEndObject();
            g.writeArrayFieldStart("virtuals");
            for (VirtualService v : c.virtuals()) {
                g.writeStartObject();
                g.writeStringField("virtual", v.key().address());
                g.writeNumberField("line", v.line());
                fields(g, virtual(v));
                g.writeArrayFieldStart("reals");
                for (RealServer r : v.reals()) {
                    g.writeStartObject();
                    g.writeStringField("real", r.endpoint().toString());
                    g.writeNumberField("line", r.line());
                    fields(g, real(v, r));
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private static void line(StringBuilder sb, String indent, Setting s) {
        sb.append(indent).append(s.name()).append(" = ").append(s.text()).append('\n');
    }

    /** Numbers stay numbers and quoted strings lose ldirectord.cf's quotes, so JSON readers need not parse text. */
    private static void fields(JsonGenerator g, List<Setting> settings) throws IOException {
        for (Setting s : settings) {
            if (s.value().isEmpty()) {
                g.writeNullField(s.name());
            } else if (s.kind() == Kind.NUMBER) {
                g.writeNumberField(s.name(), Long.parseLong(s.value().get()));
            } else {
                g.writeStringField(s.name(), s.value().get());
            }
        }
    }

    private static List<Setting> globals(GlobalSettings g) {
        List<Setting> all = new ArrayList<>(List.of(
                Setting.of("autoreload", yesNo(g.autoReload())),
                Setting.quoted("callback", g.callback()),
                Setting.of("checkinterval", g.checkInterval().toSeconds()),
                Setting.opt("emailalertfrom", g.emailAlertFrom()),
                Setting.opt("execute", g.execute().isEmpty() ? Optional.empty()
                        : Optional.of(String.join(", ", g.execute()))),
                Setting.of("fork", yesNo(g.fork())),
                Setting.quoted("logfile", Optional.of(g.logFile())),
                Setting.opt("maintenancedir", g.maintenanceDir()),
                Setting.of("readdquiescent", yesNo(g.readdQuiescent())),
                Setting.of("supervised", yesNo(g.supervised()))));
        // the connection sync (a jheartbeat extension) only when set, so a plain ldirectord.cf reads as before
        g.sync().ifPresent(y -> all.addAll(List.of(Setting.of("syncdaemon", y.iface()), Setting.num("syncid", y.syncId()),
                Setting.opt("syncpeer", y.peers().isEmpty() ? Optional.empty() : Optional.of(String.join(" ",
                        y.peers().stream().map(java.net.InetAddress::getHostAddress).toList()))),
                Setting.of("syncauthkeys", y.authKeys().toString()))));
        return all;
    }

    private static List<Setting> virtual(VirtualService v) {
        List<Setting> s = new ArrayList<>(List.of(
                Setting.of("protocol", v.key().protocol().configName()),
                Setting.of("scheduler", v.scheduler()),
                Setting.opt("schedflags", v.schedFlags()),
                Setting.num("persistent", v.persistent()),
                Setting.opt("netmask", v.netmask()),
                Setting.of("ops", yesNo(v.ops())),
                Setting.of("checktype", v.checkType()),
                Setting.of("service", v.service()),
                Setting.num("checkport", v.checkPort()),
                Setting.quoted("request", v.request()),
                Setting.quoted("receive", v.receive()),
                Setting.of("httpmethod", v.httpMethod()),
                Setting.quoted("virtualhost", v.virtualHost()),
                Setting.quoted("login", v.login()),
                Setting.opt("passwd", v.passwd().map(p -> HIDDEN)),
                Setting.quoted("database", v.database()),
                Setting.opt("secret", v.secret().map(p -> HIDDEN)),
                Setting.of("checkcommand", v.checkCommand()),
                Setting.of("checktimeout", v.checkTimeout().toSeconds()),
                Setting.of("negotiatetimeout", v.negotiateTimeout().toSeconds()),
                Setting.of("checkinterval", v.checkInterval().toSeconds()),
                Setting.of("checkcount", v.checkCount()),
                Setting.of("failurecount", v.failureCount()),
                Setting.of("quiescent", yesNo(v.quiescent())),
                Setting.of("cleanstop", yesNo(v.cleanStop())),
                Setting.opt("fallback", v.fallback().map(f -> f.endpoint() + " " + f.forward().configName())),
                Setting.opt("fallbackcommand", v.fallbackCommand()),
                Setting.quoted("emailalert", v.emailAlert()),
                Setting.of("emailalertfreq", v.emailAlertFreq()),
                Setting.of("emailalertstatus", v.emailAlertStatus()),
                Setting.opt("smtp", v.smtp()),
                Setting.opt("monitorfile", v.monitorFile()),
                Setting.opt("servicename", v.serviceName()),
                Setting.opt("comment", v.comment()),
                Setting.opt("checkcafile", v.checkCaFile()),
                Setting.of("resetcounts", yesNo(v.rejoin().resetCounts())),
                Setting.of("slowstart", v.rejoin().slowStartSeconds())));
        return List.copyOf(s);
    }

    private static final Map<Forward, String> METHOD = Map.of(Forward.GATE, "LVS-DR, ipvsadm -g",
            Forward.MASQ, "LVS-NAT, ipvsadm -m", Forward.IPIP, "LVS-TUN, ipvsadm -i");

    private static List<Setting> real(VirtualService v, RealServer r) {
        int checkPort = v.checkPortOf(r);
        long timeout = v.timeoutOfOneCheck().toSeconds();
        return List.of(
                Setting.of("address", r.endpoint().host()),
                Setting.of("port", r.endpoint().port()),
                Setting.of("forward", r.forward().configName()),
                Setting.of("method", METHOD.get(r.forward())),
                Setting.of("weight", r.weight()),
                Setting.of("lowerthreshold", r.lowerThreshold()),
                Setting.of("upperthreshold", r.upperThreshold()),
                Setting.of("check", v.checkType() + " " + r.endpoint().withPort(checkPort) + " within " + timeout
                        + " s"),
                Setting.of("checkport", checkPort),
                Setting.quoted("request", r.request().or(v::request)),
                Setting.quoted("receive", r.receive().or(v::receive)));
    }

    private static String yesNo(boolean b) {
        return b ? "yes" : "no";
    }
}
