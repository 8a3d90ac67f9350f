#!/usr/bin/env bash
# Benchmark: failover and failback of the real Heartbeat 3.0.6 and of jheartbeat, in the same lab, interleaved.
# For each timing setting it brings up two labs (lab/lab.sh, root): one whose two nodes run the real Heartbeat
# (Debian package heartbeat), one whose two nodes run jheartbeat (cli/target/hb.jar, lab.sh's JVM flags), both
# with the lab's group (VIP 198.18.0.100/24 on eth0 + the labweb HTTP service; Heartbeat: IPaddr2) and eth1
# (the crossover) as the only heartbeat medium. Then it runs, N times each and alternating (Heartbeat, ours,
# Heartbeat, ours, ...):
#   - power-off of node1 (lab.sh poweroff: every process of the node SIGKILLed, its links down) while the
#     client polls the VIP every 20 ms (bench/failover-probe.py poll: TCP connect + HTTP GET);
#     failover = power-off -> the first answer served by node2;
#   - the peer's last beat: the last heartbeat datagram from node1 seen on node2's eth1 (a raw-socket sniffer,
#     failover-probe.py sniff); "after deadtime" = last beat -> X minus deadtime, for X = the VIP answers
#     (the first connect refused or served: node2 holds the address and the client has its MAC) and
#     X = served (the HTTP service answers too);
#   - failback: power-on and start of node1 (auto_failback on) -> the first answer served by node1.
# For jheartbeat it also prints where the time after deadtime goes, from node2's ha-log timestamps (ms),
# relative to last beat + deadtime: "is dead" (the detection tick), STONITH (when configured), the group's
# start, `ip addr add`, the first gratuitous ARP out, the service script's start, and the group's completion.
# Prints per system min/median/max and the ratio of the medians (jheartbeat/Heartbeat). Figures are printed,
# never asserted. Not run by CI.
#
# With --stonith (fenced failover), each node has a simulated APC Smart-UPS (LAB_STONITH=apcsmart,
# lab/target/lab-sim.jar): node2 must fence node1 through node1's UPS before it takes over, so failover =
# power-off -> deadtime -> the fence -> served. Heartbeat 3.0.6's apcsmart plugin resets through the UPS's grace
# delay; jheartbeat switches the outlet off and waits for the UPS to confirm it (jheartbeat.yaml stonith: action
# auto; set LAB_FENCE_ACTION=reset to measure its reset instead); the breakdown then shows "fence" (asked) and
# "fenced" (confirmed).
#
#   bench/failover.sh [--runs N] [--settings "1:5 100ms:500ms"] [--systems "heartbeat jheartbeat"] [--stonith]
#     --runs N       runs per system and setting (default 5)
#     --settings     keepalive:deadtime pairs, whole seconds or ms in ha.cf syntax (default "1:5 100ms:500ms")
#     --systems      which systems (default both; heartbeat only if /usr/libexec/heartbeat/heartbeat exists)
# Needs: root, python3, cli/target/hb.jar (mvn -o -q -B package -DskipTests -pl cli -am).
# Env: LAB_ID base (default fo<pid mod 1000>; the labs are <base>h and <base>j), HB_JAVA_OPTS as lab.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LAB=$ROOT/lab/lab.sh
PROBE=$ROOT/bench/failover-probe.py
RUNS=5
SETTINGS="1:5 100ms:500ms"
SYSTEMS="heartbeat jheartbeat"
[[ -x /usr/libexec/heartbeat/heartbeat ]] || SYSTEMS=jheartbeat
. "$ROOT/bench/args.sh"
while (($#)); do
    case $1 in
        --runs) need_value "$1" $#; positive_int "$1" "$2"; RUNS=$2; shift 2 ;;
        --settings) need_value "$1" $#; SETTINGS=$2; shift 2 ;;
        --systems) need_value "$1" $#; SYSTEMS=$2; shift 2 ;;
        --stonith) export LAB_STONITH=apcsmart; shift ;;
        *) unknown_arg "$1" ;;
    esac
done
[[ -n ${SETTINGS// /} ]] || arg_error "--settings needs at least one keepalive:deadtime pair"
for setting in $SETTINGS; do
    [[ $setting == *:* ]] || arg_error "--settings: '$setting' is not keepalive:deadtime (e.g. 1:5 or 100ms:500ms)"
    hacf_time "--settings keepalive" "${setting%%:*}"
    hacf_time "--settings deadtime" "${setting#*:}"
done
[[ -n ${SYSTEMS// /} ]] || arg_error "--systems needs at least one of heartbeat, jheartbeat"
for s in $SYSTEMS; do one_of "--systems" "$s" heartbeat jheartbeat; done
args_done
[[ -f ${HB_JAR:-$ROOT/cli/target/hb.jar} ]] || { echo "failover.sh: build first: mvn -o -q -B package -DskipTests -pl cli -am" >&2; exit 1; }
command -v python3 >/dev/null || { echo "failover.sh: needs python3 (apt-get install python3)" >&2; exit 1; }
BASE=${LAB_ID:-fo$(($$ % 1000))}
OUT=$(mktemp -d /tmp/failover-bench.XXXXXX)
PIDS=()
. "$ROOT/bench/lib.sh"
cleanup() {
    kill_pids
    for s in $SYSTEMS; do LAB_ID=$BASE${s:0:1} "$LAB" down >/dev/null 2>&1 || true; done
}
trap cleanup EXIT

now() { date +%s%3N; }
ms_of() { # deadtime/keepalive in ha.cf syntax (5, 5s, 500ms) -> ms
    case $1 in *ms) echo "${1%ms}" ;; *s) echo $((${1%s} * 1000)) ;; *) echo $(($1 * 1000)) ;; esac
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "-") }'; }
stats() { # file with one number a line -> "min/median/max"
    [[ -s $1 ]] || { echo "-"; return; }
    echo "$(sort -n "$1" | head -1)/$(median <"$1")/$(sort -n "$1" | tail -1)"
}
wait_state() { # POLLFILE STATE SINCE_MS TIMEOUT_S -> prints the ms of the first line with STATE at or after SINCE
    local deadline=$(($(date +%s) + $4)) t
    while (($(date +%s) < deadline)); do
        t=$(awk -v s="$2" -v since="$3" '$1 >= since && $2 == s { print $1; exit }' "$1")
        [[ -n $t ]] && { echo "$t"; return 0; }
        sleep 0.05
    done
    return 1
}
log_ms() { # HA_LOG SINCE_MS REGEX -> ms of the first ha-log line at/after SINCE matching REGEX (ha-log: 2026/12/01_16:17:11.175)
    awk -v since="$2" -v re="$3" '
        $0 ~ re {
            split($1, a, "_"); gsub("/", "-", a[1]);
            cmd = "date -d \"" a[1] " " a[2] "\" +%s%3N"; cmd | getline t; close(cmd);
            if (t >= since) { print t; exit }
        }' "$1"
}

up_lab() { # SYSTEM KEEPALIVE DEADTIME
    local sys=$1 ka=$2 dt=$3 n
    export LAB_ID=$BASE${sys:0:1} LAB_NODE1=$sys LAB_NODE2=$sys LAB_KEEPALIVE=$ka LAB_DEADTIME=$dt
    export LAB_WARNTIME=$(($(ms_of "$dt") * 6 / 10))ms LAB_INITDEAD=10 LAB_AUTO_FAILBACK=on
    "$LAB" up >"$OUT/$LAB_ID.up.log" 2>&1 || { cat "$OUT/$LAB_ID.up.log" >&2; exit 1; }
    eval "$("$LAB" env)"
    for n in 1 2; do # eth1 only
        sed -i '/^ucast eth0 /d' "$(eval echo "\$N${n}_HA_CF")"
        if [[ $sys == jheartbeat && -n ${LAB_FENCE_ACTION:-} ]]; then
            printf 'stonith:\n  action: %s\n' "$LAB_FENCE_ACTION" >"$(dirname "$(eval echo "\$N${n}_HA_CF")")/jheartbeat.yaml"
        fi
    done
    "$LAB" start node1 >/dev/null 2>&1
    "$LAB" start node2 >/dev/null 2>&1
    settle "$sys"
}
settle() { # SYSTEM: wait until node1 serves and node2 sees it (60 s)
    local i
    for ((i = 0; i < 600; i++)); do
        [[ $("$LAB" http 2>/dev/null) == node1 ]] && return 0
        sleep 0.1
    done
    echo "failover.sh: $1 lab $LAB_ID: node1 does not serve the VIP within 60 s" >&2
    exit 1
}

run_once() { # SYSTEM DEADTIME_MS RUN
    local sys=$1 dt=$2 r=$3 f=$OUT/$1.$2.$3 poll sniff t_off t_srv t_vip last t_start t_back
    export LAB_ID=$BASE${sys:0:1}
    eval "$("$LAB" env)"
    ip netns exec "$NS_N2" python3 "$PROBE" sniff eth1 198.18.1.1 694 >"$f.sniff" &
    sniff=$!
    ip netns exec "$NS_CL" python3 "$PROBE" poll 198.18.0.100 8080 20 >"$f.poll" &
    poll=$!
    PIDS=("$sniff" "$poll")
    # both probes running (python may start slowly on a loaded machine), node1 serving
    local i
    for ((i = 0; i < 200; i++)); do
        [[ -s $f.sniff && $(tail -1 "$f.poll" | cut -d' ' -f2) == node1 ]] && break
        sleep 0.05
    done
    [[ $(tail -1 "$f.poll" | cut -d' ' -f2) == node1 ]] || { echo "failover.sh: $sys run $r: node1 not serving before power-off" >&2; exit 1; }
    [[ -s $f.sniff ]] || { echo "failover.sh: $sys run $r: no beat from node1 seen on node2's eth1" >&2; exit 1; }
    t_off=$(now)
    "$LAB" poweroff node1 >/dev/null 2>&1
    t_srv=$(wait_state "$f.poll" node2 "$t_off" 120) || { echo "failover.sh: $sys run $r: node2 not serving 120 s after power-off" >&2; exit 1; }
    # the VIP answers from node2: refused or served while the client's ARP entry is node2's eth0 MAC
    t_vip=$(awk -v s="$t_off" '$1 >= s && ($2 == "refused" || $2 == "node2") && $3 == "02:00:c6:12:00:02" { print $1; exit }' "$f.poll")
    last=$(awk -v s="$t_srv" '$1 <= s' "$f.sniff" | tail -1)
    kill "$sniff" 2>/dev/null || true
    "$LAB" poweron node1 >/dev/null 2>&1
    t_start=$(now)
    "$LAB" start node1 >/dev/null 2>&1
    t_back=$(wait_state "$f.poll" node1 "$t_start" 90) || { echo "failover.sh: $sys run $r: node1 not serving 90 s after its start" >&2; exit 1; }
    kill "$poll" 2>/dev/null || true
    wait "$sniff" "$poll" 2>/dev/null || true
    PIDS=()
    echo "$((t_srv - t_off))" >>"$OUT/$sys.$dt.failover"
    echo "$((t_back - t_start))" >>"$OUT/$sys.$dt.failback"
    echo "$((t_vip - last - dt))" >>"$OUT/$sys.$dt.vip"
    echo "$((t_srv - last - dt))" >>"$OUT/$sys.$dt.served"
    printf '  %-10s run %d: failover %5d ms, failback %5d ms; last beat -> VIP answers %5d ms, -> served %5d ms (deadtime %d ms)\n' \
        "$sys" "$r" "$((t_srv - t_off))" "$((t_back - t_start))" "$((t_vip - last))" "$((t_srv - last))" "$dt"
    if [[ $sys == jheartbeat ]]; then
        breakdown "$N2_HA_LOG" "$t_off" "$((last + dt))" "$t_vip" "$t_srv" "$OUT/$sys.$dt.steps"
    fi
    settle "$sys"
}
breakdown() { # HA_LOG T_OFF ZERO T_VIP T_SRV STEPSFILE: our steps after deadtime, ms relative to ZERO
    local log=$1 since=$2 zero=$3 line="" name re t
    local -a steps=("dead:node node1: is dead" "fence:Resetting node node1 with STONITH" "fenced:node node1 now reset" "group:Starting resource group"
        "ipadd:Running ip -4 addr add" "arp:Gratuitous ARP for .* sent$" "script:resource.d/labweb start"
        "complete:mach_down takeover complete")
    for s in "${steps[@]}"; do
        name=${s%%:*}
        re=${s#*:}
        t=$(log_ms "$log" "$since" "$re")
        [[ -n $t ]] && { line+=" $name=$((t - zero))"; echo "$name $((t - zero))" >>"$6"; }
    done
    line+=" vip=$(($4 - zero)) served=$(($5 - zero))"
    echo "vip $(($4 - zero))" >>"$6"
    echo "served $(($5 - zero))" >>"$6"
    echo "             after deadtime (ms):$line"
}

echo "failover.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  ${RUNS} runs per system and setting, interleaved; eth1 only; client polls every 20 ms; systems: $SYSTEMS;" \
    "STONITH: ${LAB_STONITH:-none}${LAB_FENCE_ACTION:+ (jheartbeat action $LAB_FENCE_ACTION)}"
for setting in $SETTINGS; do
    ka=${setting%%:*}
    dt=${setting#*:}
    dtms=$(ms_of "$dt")
    echo "== keepalive $ka, deadtime $dt"
    for s in $SYSTEMS; do up_lab "$s" "$ka" "$dt"; done
    for ((r = 1; r <= RUNS; r++)); do
        for s in $SYSTEMS; do run_once "$s" "$dtms" "$r"; done
    done
    for s in $SYSTEMS; do LAB_ID=$BASE${s:0:1} "$LAB" down >/dev/null 2>&1 || true; done
    printf '  %-16s %-22s %-22s %-26s %s\n' system "failover min/med/max" "failback min/med/max" \
        "beat->VIP answers -dt" "beat->served -dt (ms)"
    for s in $SYSTEMS; do
        printf '  %-16s %-22s %-22s %-26s %s\n' "$s" "$(stats "$OUT/$s.$dtms.failover")" "$(stats "$OUT/$s.$dtms.failback")" \
            "$(stats "$OUT/$s.$dtms.vip")" "$(stats "$OUT/$s.$dtms.served")"
    done
    if [[ $SYSTEMS == *heartbeat*jheartbeat* || $SYSTEMS == *jheartbeat*" "heartbeat* ]]; then
        jf=$(median <"$OUT/jheartbeat.$dtms.failover"); hf=$(median <"$OUT/heartbeat.$dtms.failover")
        jb=$(median <"$OUT/jheartbeat.$dtms.failback"); hb=$(median <"$OUT/heartbeat.$dtms.failback")
        printf '  ratio of medians jheartbeat/Heartbeat: failover %.2f, failback %.2f\n' \
            "$(echo "$jf/$hf" | bc -l)" "$(echo "$jb/$hb" | bc -l)"
    fi
    if [[ -s $OUT/jheartbeat.$dtms.steps ]]; then
        printf '  jheartbeat after last beat + deadtime, median ms:'
        for n in dead fence fenced group ipadd arp script complete vip served; do
            v=$(awk -v n="$n" '$1 == n { print $2 }' "$OUT/jheartbeat.$dtms.steps" | median)
            [[ $v == - ]] || printf ' %s %s' "$n" "$v"
        done
        echo
    fi
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$OUT"
