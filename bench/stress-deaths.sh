#!/usr/bin/env bash
# Benchmark: false deaths under stress. Settled pairs of the real Heartbeat 3.0.6 and of
# jheartbeat, side by side (all labs up at once, under the same stress-ng, for the same minutes), at keepalive
# 100 ms / deadtime 500 ms / warntime 300 ms, eth1 (the crossover) the only medium, each lab with its group
# (VIP 198.18.0.100 + labweb; Heartbeat: IPaddr2). jheartbeat runs through the packaged launcher
# (packaging/src/bin/hb and its JVM flags), once per VARIANT (a set of scheduling/JVM knobs, each in its own lab,
# all at once, so every variant sees the same load):
#   plain     the launcher as is, nice 0, the daemon's real-time threads off (-Djheartbeat.realtime=off)
#   nice      as plain, with nice -n -10 and ionice best-effort 0 (what jheartbeat.service gave before real-time scheduling)
#   rr        chrt --rr 1: SCHED_RR priority 1 for the whole JVM (every thread, and every child it forks), as
#             Heartbeat runs realtime; the daemon's own real-time threads off
#   rrpt      rr, and -XX:+AlwaysPreTouch (the heap's pages faulted in at start)
#   threads   the daemon's real-time threads (its default: hb-loop, hb-media, VM Thread on SCHED_RR 1), nice 0
#   unit      threads, with nice -n -10 and ionice best-effort 0: what jheartbeat.service now gives
# Extra JVM flags of a variant go through JAVA_TOOL_OPTIONS, so the launcher's own flags stay as they are.
# Counted per lab after it settled (node1 serving, node2 up), from both nodes' ha-log: late heartbeats
# ("Late heartbeat" lines, warntime exceeded) with the largest interval, deaths ("node nodeN: is dead"),
# takeovers; and VIP moves from the holder of the VIP sampled every 0.5 s (`ip -n NS addr`), with the
# samples where both nodes held it ("both": must be 0).
#
#   bench/stress-deaths.sh [--minutes M] [--systems "heartbeat jheartbeat"] [--variants "plain nice rr threads unit"]
#                          [--cpu N] [--vm M] [--vm-bytes SIZE] [--io K] [--no-stress]
#     --minutes M   stress duration (default 10; a fraction such as 0.5 too, at least 1 s)
#     --cpu N       stress-ng CPU hogs (default nproc), --vm M memory hogs (default max(1, nproc/2)) of
#                   --vm-bytes each (default 1/16 of MemAvailable, at most 1g), --io K sync() hogs (default 1)
#                   (each count 1 or more)
#     --no-stress   the same counts without stress-ng (a control run)
# Needs: root, stress-ng (installed here with apt-get if missing), cli/target/hb.jar
# (mvn -o -q -B package -DskipTests -pl cli -am). Figures are printed, never asserted. Not run by CI
# (StressDeathsIT is the short CI variant).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LAB=$ROOT/lab/lab.sh
LAUNCHER=$ROOT/packaging/src/bin/hb
MINUTES=10
SYSTEMS="heartbeat jheartbeat"
[[ -x /usr/libexec/heartbeat/heartbeat ]] || SYSTEMS=jheartbeat
VARIANTS="plain nice rr threads unit"
CPU=$(nproc)
VM=$(($(nproc) / 2))
((VM >= 1)) || VM=1
VMBYTES=$(awk '/MemAvailable/ { m = int($2 / 16 / 1024); if (m > 1024) m = 1024; print m "m" }' /proc/meminfo)
IO=1
STRESS=1
. "$ROOT/bench/args.sh"
while (($#)); do
    case $1 in
        --minutes | --systems | --variants | --cpu | --vm | --vm-bytes | --io)
            need_value "$1" $#
            case $1 in
                --minutes) MINUTES=$2 ;;
                --systems) SYSTEMS=$2 ;;
                --variants) VARIANTS=$2 ;;
                --cpu | --vm | --io)
                    # stress-ng reads 0 as "one per CPU": a count is asked for here
                    positive_int "$1" "$2"
                    case $1 in --cpu) CPU=$2 ;; --vm) VM=$2 ;; *) IO=$2 ;; esac ;;
                --vm-bytes)
                    [[ $2 =~ ^[1-9][0-9]{0,12}[bkmg]?$ ]] \
                        || arg_error "--vm-bytes must be a size such as 512m or 1g, not '$2'"
                    VMBYTES=$2 ;;
            esac
            shift 2 ;;
        --no-stress) STRESS=0; shift ;;
        *) unknown_arg "$1" ;;
    esac
done
# stress-ng's --timeout 0s would never end: at least a second (the run is SECS=MINUTES*60 whole seconds)
[[ $MINUTES =~ ^[0-9]{1,6}([.][0-9]+)?$ && $(awk -v m="$MINUTES" 'BEGIN { printf "%d", m * 60 }') -ge 1 ]] \
    || arg_error "--minutes must be a number of at least 1 s (e.g. 10 or 0.5), not '$MINUTES'"
[[ -n ${SYSTEMS// /} ]] || arg_error "--systems needs at least one of heartbeat, jheartbeat"
for s in $SYSTEMS; do one_of --systems "$s" heartbeat jheartbeat; done
for v in $VARIANTS; do one_of --variants "$v" plain nice rr rrpt threads unit; done
args_done
[[ -f ${HB_JAR:-$ROOT/cli/target/hb.jar} ]] || { echo "stress-deaths.sh: build first: mvn -o -q -B package -DskipTests -pl cli -am" >&2; exit 1; }
export HB_JAR=${HB_JAR:-$ROOT/cli/target/hb.jar}
if ((STRESS)) && ! command -v stress-ng >/dev/null; then
    echo "stress-deaths.sh: installing stress-ng" >&2
    apt-get install -y --no-install-recommends stress-ng >/dev/null || { echo "stress-deaths.sh: apt-get install stress-ng failed" >&2; exit 1; }
fi
BASE=${LAB_ID:-sd$(($$ % 1000))}
OUT=$(mktemp -d /tmp/stress-deaths.XXXXXX)
LABS=()   # lab ids
KIND=()   # heartbeat | jheartbeat
NAME=()   # row name
PIDS=()
. "$ROOT/bench/lib.sh"
cleanup() {
    local l
    kill_pids
    for l in "${LABS[@]}"; do LAB_ID=$l "$LAB" down >/dev/null 2>&1 || true; done
}
trap cleanup EXIT

# variant_cmd VARIANT: the HB_CMD (lab.sh start: replaces "java $HB_JAVA_OPTS -jar $HB_JAR") and the extra JVM flags
variant_cmd() {
    case $1 in
        plain) echo "$LAUNCHER|-Djheartbeat.realtime=off" ;;
        nice) echo "nice -n -10 ionice -c 2 -n 0 $LAUNCHER|-Djheartbeat.realtime=off" ;;
        rr) echo "chrt --rr 1 $LAUNCHER|-Djheartbeat.realtime=off" ;;
        rrpt) echo "chrt --rr 1 $LAUNCHER|-Djheartbeat.realtime=off -XX:+AlwaysPreTouch" ;;
        threads) echo "$LAUNCHER|" ;;
        unit) echo "nice -n -10 ionice -c 2 -n 0 $LAUNCHER|" ;;
    esac
}

up_lab() { # LAB_ID KIND VARIANT
    local id=$1 kind=$2 var=${3:-} n spec
    export LAB_ID=$id LAB_NODE1=$kind LAB_NODE2=$kind LAB_KEEPALIVE=100ms LAB_DEADTIME=500ms
    export LAB_WARNTIME=300ms LAB_INITDEAD=10 LAB_AUTO_FAILBACK=on
    "$LAB" up >"$OUT/$id.up.log" 2>&1 || { cat "$OUT/$id.up.log" >&2; exit 1; }
    eval "$("$LAB" env)"
    for n in 1 2; do # eth1 only
        sed -i '/^ucast eth0 /d' "$(eval echo "\$N${n}_HA_CF")"
    done
    if [[ $kind == jheartbeat ]]; then
        spec=$(variant_cmd "$var")
        HB_CMD=${spec%%|*} JAVA_TOOL_OPTIONS=${spec#*|} "$LAB" start node1 >/dev/null 2>&1
        HB_CMD=${spec%%|*} JAVA_TOOL_OPTIONS=${spec#*|} "$LAB" start node2 >/dev/null 2>&1
    else
        "$LAB" start node1 >/dev/null 2>&1
        "$LAB" start node2 >/dev/null 2>&1
    fi
    LABS+=("$id")
    KIND+=("$kind")
    NAME+=("$kind${var:+ $var}")
}
settle() { # LAB_ID: node1 serves the VIP, and node2 has seen node1 (its ha-log says so)
    local i
    export LAB_ID=$1
    eval "$("$LAB" env)"
    for ((i = 0; i < 900; i++)); do
        if [[ $("$LAB" http 2>/dev/null) == node1 ]] && grep -q "Link node1:eth1 up" "$N2_HA_LOG" 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    echo "stress-deaths.sh: lab $1: not settled within 90 s (node1 serving, node2 seeing it)" >&2
    exit 1
}
halog() { # LAB_ID N -> node N's ha-log
    LAB_ID=$1 "$LAB" env | sed -n "s/^N$2_HA_LOG=//p" | tr -d "'\""
}
holder() { # LAB_ID -> 1, 2, both or none
    local a=0 b=0
    local s1 s2 # whole output first: grep -q closing the pipe early would fail the pipeline (pipefail)
    s1=$(ip -n "$1-n1" -o -4 addr show 2>/dev/null || true)
    s2=$(ip -n "$1-n2" -o -4 addr show 2>/dev/null || true)
    [[ $s1 == *" 198.18.0.100/"* ]] && a=1
    [[ $s2 == *" 198.18.0.100/"* ]] && b=1
    case $a$b in 10) echo 1 ;; 01) echo 2 ;; 11) echo both ;; *) echo none ;; esac
}

echo "stress-deaths.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)," \
    "$(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
for s in $SYSTEMS; do
    if [[ $s == heartbeat ]]; then
        up_lab "${BASE}h" heartbeat
    else
        for v in $VARIANTS; do up_lab "${BASE}j$i" jheartbeat "$v"; i=$((i + 1)); done
    fi
done
for l in "${LABS[@]}"; do settle "$l"; done
sleep 3 # initial chatter over (node2's first status, the resource transition)
# counters start here: remember each ha-log's size
for l in "${LABS[@]}"; do
    for n in 1 2; do stat -c %s "$(halog "$l" "$n")" >"$OUT/$l.n$n.off" 2>/dev/null || echo 0 >"$OUT/$l.n$n.off"; done
    holder "$l" >"$OUT/$l.holder0"
done
# node1's beats as they reach node2's eth1 (kernel receive time): the gaps show how late node1 sends
for l in "${LABS[@]}"; do
    ip netns exec "$l-n2" python3 "$ROOT/bench/failover-probe.py" sniff eth1 198.18.1.1 694 >"$OUT/$l.sniff" &
    PIDS+=($!)
done
SECS=$(awk -v m="$MINUTES" 'BEGIN { printf "%d", m * 60 }')
if ((STRESS)); then
    echo "  stress-ng --cpu $CPU --vm $VM --vm-bytes $VMBYTES --io $IO --timeout ${SECS}s;" \
        "labs side by side: ${NAME[*]}"
    stress-ng --cpu "$CPU" --vm "$VM" --vm-bytes "$VMBYTES" --io "$IO" --timeout "${SECS}s" >"$OUT/stress.log" 2>&1 &
    SPID=$!
    PIDS+=("$SPID")
else
    echo "  no stress (control run), ${SECS} s; labs side by side: ${NAME[*]}"
fi
T0=$(date +%s%3N)
# sample the VIP's holder every 0.5 s per lab
end=$(($(date +%s) + SECS))
while (($(date +%s) < end)); do
    for l in "${LABS[@]}"; do echo "$(date +%s%3N) $(holder "$l")" >>"$OUT/$l.holders"; done
    sleep 0.5
done
((STRESS)) && wait "$SPID" 2>/dev/null || true
for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
PIDS=()
echo "  load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

printf '  %-18s %7s %7s %7s %6s %6s %8s %7s %6s %6s %s\n' system beats "gap p99" "gap max" ">200ms" late "late max" deaths "takeov" "moves" "both"
k=0
total_both=0
for l in "${LABS[@]}"; do
    late=0 maxi=0 deaths=0 take=0
    for n in 1 2; do
        f=$(halog "$l" "$n")
        tail -c +$(($(cat "$OUT/$l.n$n.off") + 1)) "$f" >"$OUT/$l.n$n.log" 2>/dev/null || true
        late=$((late + $(grep -c "Late heartbeat" "$OUT/$l.n$n.log" || true)))
        m=$(grep -o "Late heartbeat: Node node[12]: interval [0-9]* ms" "$OUT/$l.n$n.log" | awk '{ if ($6 > m) m = $6 } END { print m + 0 }' || true)
        if ((m > maxi)); then maxi=$m; fi
        deaths=$((deaths + $(grep -c "node node[12]: is dead" "$OUT/$l.n$n.log" || true)))
        take=$((take + $(grep -c "mach_down takeover complete\|Taking over resource group\|Starting resource group" "$OUT/$l.n$n.log" || true)))
    done
    moves=$(awk -v h0="$(cat "$OUT/$l.holder0")" 'BEGIN { p = h0 } $2 != p { if ($2 != "none") m++; p = $2 } END { print m + 0 }' "$OUT/$l.holders")
    both=$(awk '$2 == "both" { b++ } END { print b + 0 }' "$OUT/$l.holders")
    total_both=$((total_both + both))
    # beats: datagrams seen from node1; gaps between consecutive ones (ms), from the start of the stress
    read -r beats p99 gmax g200 < <(awk -v t0="$T0" '$1 >= t0 { if (p) { g = $1 - p; print g } p = $1 }' "$OUT/$l.sniff" | sort -n |
        awk '{ v[NR] = $1; if ($1 > 200) c++ } END { i = int(NR * 0.99); if (i < 1) i = 1; if (NR) print NR + 1, v[i], v[NR], c + 0; else print 0, "-", "-", 0 }')
    printf '  %-18s %7s %7s %7s %6s %6d %8s %7d %6d %6d %d\n' "${NAME[$k]#jheartbeat }" "$beats" "$p99" "$gmax" "$g200" "$late" \
        "$([[ $maxi == 0 ]] && echo - || echo "$maxi")" "$deaths" "$take" "$moves" "$both"
    k=$((k + 1))
done
echo "  beats: node1's datagrams seen on node2's eth1 (keepalive 100 ms); gap p99/max: between consecutive ones, ms;"
echo "  >200ms: gaps over 2 keepalives; late: 'Late heartbeat' lines of both nodes (warntime 300 ms), late max: the"
echo "  largest interval they report; deaths: 'node nodeN: is dead' lines; takeov: group starts logged; moves: VIP holder"
echo "  changes in the 0.5 s samples ($(wc -l <"$OUT/${LABS[0]}.holders") per lab); both: samples with the VIP on both nodes"
[[ -n ${KEEP_OUT:-} ]] && echo "  raw files kept in $OUT" || rm -rf "$OUT"
