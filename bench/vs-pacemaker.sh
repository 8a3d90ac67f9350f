#!/usr/bin/env bash
# Benchmark: jheartbeat beside Corosync 3 + Pacemaker 2 (Debian 12's packages) on the same two lab nodes.
# One lab (lab/lab.sh, root) with the lab's group (VIP 198.18.0.100/24 on eth0 + the labweb HTTP service on
# node1, auto_failback on, ucast on eth1 and eth0). `hb export pacemaker` turns node1's configuration into
# corosync.conf + cib.xml (group grp-ip-198.18.0.100: IPaddr2 + the labweb script through the exported
# ocf:jheartbeat:hb-script; two knet links; deadtime D -> token = D / 2.2, consensus = D - token, so Corosync
# acts on a lost node after token + consensus = D, as jheartbeat after deadtime: docs/design/export.md).
# jheartbeat runs through the packaged launcher (packaging/src/bin/hb: the .deb's JVM flags; no CDS archive
# unless HB_CDS says so); Pacemaker as the export's drills start it (lab/pcmk-node.sh: corosync -f, then
# pacemakerd -f, in each node's own mount namespace).
# Rounds are interleaved (jheartbeat, Pacemaker, jheartbeat, ...); each round of a stack, both nodes freshly
# powered on:
#   - start -> served: the start command on both nodes at once (lab.sh start / pcmk-node.sh) -> the client's
#     first HTTP answer through the VIP (bench/failover-probe.py poll in the client namespace, every 50 ms);
#   - idle, after a warm-up of WARMUP s with nothing running but the stack: RSS and PSS per node, summed over
#     the stack's processes (/proc/PID/smaps_rollup; jheartbeat: the daemon JVM; Pacemaker: corosync,
#     pacemakerd, pacemaker-based, -fenced, -execd, -attrd, -schedulerd, -controld); then idle CPU per node
#     over CPU_S s (/proc/PID/stat utime+stime of those processes; "+children" adds cutime+cstime: the
#     reaped monitor operations the stack forked, e.g. the 10 s monitors of the group);
#   - planned move: `hb standby` on the serving node (jheartbeat; it waits for the hand-over) vs
#     `crm_resource --move --resource GROUP --node OTHER` (Pacemaker) -> the client's first answer from the
#     other node;
#   - power-off failover: lab.sh poweroff of the serving node (every process SIGKILLed, links down) -> the
#     client's first answer from the other node.
# Then both nodes are powered off (lab.sh poweroff: the stack's processes are killed by pid) and on again.
# Memory and CPU are per node: the mean of node1 and node2 in a round (each node's value is printed too).
# Prints per stack median (min-max) over the rounds and the ratio of the medians jheartbeat/Pacemaker.
# Figures are printed, never asserted. Not run by CI.
#
#   bench/vs-pacemaker.sh [--rounds N] [--keepalive K] [--deadtime D] [--warmup S] [--cpu-window S]
#     --rounds N      rounds per stack (default 3)
#     --keepalive K   ha.cf keepalive (default 500ms); --deadtime D: ha.cf deadtime (default 3); each in whole
#                     seconds (3) or milliseconds (500ms)
#     --warmup S      idle seconds before memory is read (default 60); --cpu-window S: idle CPU window (60)
#     --watch yes|no  yes (default): jheartbeat watches the group's address and script every 10 s
#                     (jheartbeat.yaml monitor: heartbeat_class: yes), the work the exported CIB gives
#                     Pacemaker (monitor ops, 10 s); no: the lab's default, jheartbeat watches nothing
#                     (Heartbeat-class resources are not watched unless asked: docs/design/resources.md)
# Needs: root, python3, corosync + pacemaker (scripts/setup.sh: pacemaker-cli-utils), cli/target/hb.jar
# (mvn -o -q -B package -DskipTests -pl cli -am). Env: LAB_ID (default vp<pid mod 1000>), HB_CMD (default the
# packaged launcher), HB_JAVA_OPTS and HB_CDS (as that launcher; HB_CDS default off).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LAB=$ROOT/lab/lab.sh
PROBE=$ROOT/bench/failover-probe.py
PCMK_NODE=$ROOT/lab/pcmk-node.sh
ROUNDS=3 KEEPALIVE=500ms DEADTIME=3 WARMUP=60 CPU_S=60
STACKS="jheartbeat pacemaker"
die() { echo "vs-pacemaker.sh: $*" >&2; exit 1; }
WATCH=yes
. "$ROOT/bench/args.sh"
while (($#)); do
    case $1 in
        --rounds | --warmup | --cpu-window | --keepalive | --deadtime | --watch) need_value "$1" $# ;;
        *) unknown_arg "$1" ;;
    esac
    case $1 in
        --rounds | --warmup | --cpu-window)
            positive_int "$1" "$2"
            case $1 in --rounds) ROUNDS=$2 ;; --warmup) WARMUP=$2 ;; *) CPU_S=$2 ;; esac ;;
        --keepalive) hacf_time "$1" "$2"; KEEPALIVE=$2 ;;
        --deadtime) hacf_time "$1" "$2"; DEADTIME=$2 ;;
        --watch) one_of "$1" "$2" yes no; WATCH=$2 ;;
    esac
    shift 2
done
args_done
(($(id -u) == 0)) || die "needs root (network namespaces)"
[[ -f ${HB_JAR:-$ROOT/cli/target/hb.jar} ]] || die "build first: mvn -o -q -B package -DskipTests -pl cli -am"
[[ -x /usr/sbin/corosync && -x /usr/sbin/pacemakerd ]] || die "corosync and pacemaker are not installed (scripts/setup.sh)"
command -v python3 >/dev/null || die "needs python3"

export LAB_ID=${LAB_ID:-vp$(($$ % 1000))}
export HB_CMD=${HB_CMD:-$ROOT/packaging/src/bin/hb} HB_CDS=${HB_CDS:-off}
export LAB_KEEPALIVE=$KEEPALIVE LAB_DEADTIME=$DEADTIME LAB_INITDEAD=10 LAB_AUTO_FAILBACK=on LAB_GROUPS=single
TCK=$(getconf CLK_TCK)
OUT=$(mktemp -d /tmp/vs-pacemaker.XXXXXX)
PIDS=()
. "$ROOT/bench/lib.sh"
trap bench_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
PCMK_PROCS=" corosync pacemakerd pacemaker-based pacemaker-fenced pacemaker-execd pacemaker-attrd pacemaker-schedulerd pacemaker-controld "
GROUP=grp-ip-198.18.0.100

now() { date +%s%3N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
holder() { cat "$LAB_RUN/node$1/holder.pid"; }
in_node() { local n=$1; shift; nsenter -t "$(holder "$n")" -n -u -m -- "$@"; }

# stack_pids STACK N: the stack's processes on node N
stack_pids() {
    local p exe
    if [[ $1 == jheartbeat ]]; then
        p=$(cat "$LAB_RUN/node$2/daemon.pid" 2>/dev/null) && [[ -d /proc/$p ]] && echo "$p"
        return 0
    fi
    for p in $(ip netns pids "$LAB_ID-n$2" 2>/dev/null); do
        exe=$(readlink "/proc/$p/exe" 2>/dev/null) || continue
        [[ $PCMK_PROCS == *" ${exe##*/} "* ]] && echo "$p"
    done
    return 0
}
mem_kb() { # PIDS... -> "RSS_KB PSS_KB"
    local p
    for p; do cat "/proc/$p/smaps_rollup"; done 2>/dev/null | awk '$1 == "Rss:" { r += $2 } $1 == "Pss:" { s += $2 } END { print r + 0, s + 0 }'
}
cpu_ticks() { # PIDS... -> "OWN CHILDREN" (utime+stime, cutime+cstime; field 14-17 of /proc/PID/stat)
    local p
    for p; do sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null; done | awk '{ o += $12 + $13; c += $14 + $15 } END { print o + 0, c + 0 }'
}

poll_start() { # FILE: the client polls the VIP every 50 ms
    ip netns exec "$NS_CL" python3 "$PROBE" poll "$LAB_VIP" 8080 50 >"$1" &
    PIDS=($!)
}
poll_stop() { kill_pids; wait "${PIDS[@]}" 2>/dev/null || true; PIDS=(); }
first_answer() { # FILE SINCE_MS TIMEOUT_S [NODE]: ms of the first answer (by NODE) at or after SINCE
    local deadline=$(($(date +%s) + $3)) t
    while (($(date +%s) < deadline)); do
        t=$(awk -v s="$2" -v want="${4:-}" '$1 >= s && $2 ~ /^node[12]$/ && (want == "" || $2 == want) { print $1; exit }' "$1")
        [[ -n $t ]] && { echo "$t"; return 0; }
        sleep 0.05
    done
    return 1
}
serving() { awk '$2 ~ /^node[12]$/ { s = $2 } END { print s }' "$1"; }

start_stack() { # STACK: the start command on both nodes at once
    local n
    local -a w=()
    for n in 1 2; do
        if [[ $1 == jheartbeat ]]; then
            "$LAB" start "node$n" >>"$OUT/start.log" 2>&1 &
        else
            in_node "$n" setsid "$PCMK_NODE" "$n" "$LAB_RUN" "$EXPORT" >>"$OUT/start.log" 2>&1 &
        fi
        w+=($!)
    done
    wait "${w[@]}" || { cat "$OUT/start.log" >&2; die "$1: start failed"; }
}
move_cmd() { # STACK FROM TO
    if [[ $1 == jheartbeat ]]; then
        # as an admin types it on the node (lab.sh hb would first run `hb standby --help` for its options)
        in_node "${2#node}" "$HB_CMD" standby --state-dir "$LAB_RUN/$2/state" >>"$OUT/move.log" 2>&1
    else
        in_node "${2#node}" crm_resource --move --resource "$GROUP" --node "$3" >>"$OUT/move.log" 2>&1
    fi
}
steps() { # NODE SINCE_MS ZERO_MS KIND...: jheartbeat's journal on NODE: "kind +ms" (from ZERO) of the first
    # event of each KIND at or after SINCE
    local node=$1 since=$2 zero=$3 k t
    shift 3
    for k; do
        t=$(awk -v s="$since" -v k="\"kind\":\"$k\"" 'index($0, k) && match($0, /"ms":[0-9]+/) {
                t = substr($0, RSTART + 5, RLENGTH - 5) + 0; if (t >= s) { print t; exit } }' "$LAB_RUN/$node/state/events.jsonl")
        [[ -n $t ]] && printf ' %s:%s +%d' "$node" "$k" "$((t - zero))"
    done
    return 0
}
cluster_view() { # STACK: one line on the cluster's state (after the idle windows: it costs a process)
    if [[ $1 == jheartbeat ]]; then
        "$LAB" hb node2 status 2>&1 | tr -s ' \n' ' ' | cut -c1-200
    else
        in_node 2 crm_mon -1 2>&1 | grep -E 'Online|OFFLINE|Current DC|Started|Stopped' | tr -s ' \n' ' ' | cut -c1-200
    fi
}

round() { # STACK ROUND
    local s=$1 r=$2 f=$OUT/$1.$2 t0 t_srv n pids mem cpu1 cpu2 from to t_mv t_mvdone t_mvsrv t_off t_fo a b c d
    local -a rss=() pss=() own=() kids=() cnt=() plist=() cpu0=()
    poll_start "$f.poll"
    for ((n = 0; n < 200; n++)); do [[ -s $f.poll ]] && break; sleep 0.05; done # python is up
    t0=$(now)
    start_stack "$s"
    t_srv=$(first_answer "$f.poll" "$t0" 180) || die "$s round $r: no answer from the VIP 180 s after the start"
    poll_stop
    echo "$((t_srv - t0))" >>"$OUT/$s.start"
    if [[ $s == jheartbeat ]]; then
        echo "    [jheartbeat round $r] start (ms from the start command):$(steps node1 "$t0" "$t0" daemon-start node-alive group-starting group-started)$(steps node2 "$t0" "$t0" daemon-start node-alive) served +$((t_srv - t0))" >>"$OUT/steps.log"
    fi
    sleep "$WARMUP"
    for n in 1 2; do
        pids=$(stack_pids "$s" "$n" | xargs)
        cnt[n]=$(wc -w <<<"$pids")
        read -r rss[n] pss[n] <<<"$(mem_kb $pids)"
        plist[n]=$pids
        cpu0[n]=$(cpu_ticks $pids)
    done
    sleep "$CPU_S"
    for n in 1 2; do
        read -r a b <<<"${cpu0[n]}"
        read -r c d <<<"$(cpu_ticks ${plist[n]})"
        own[n]=$(((c - a) * 1000 / TCK))
        kids[n]=$(((d - b) * 1000 / TCK))
    done
    echo "$(((rss[1] + rss[2]) / 2))" >>"$OUT/$s.rss"
    echo "$(((pss[1] + pss[2]) / 2))" >>"$OUT/$s.pss"
    echo "$(((own[1] + own[2]) / 2))" >>"$OUT/$s.cpu"
    echo "$(((own[1] + kids[1] + own[2] + kids[2]) / 2))" >>"$OUT/$s.cpuall"
    echo "    [$s] $(cluster_view "$s")" >>"$OUT/views.log"

    poll_start "$f.poll2"
    first_answer "$f.poll2" 0 30 >/dev/null || die "$s round $r: VIP not answering before the move"
    from=$(serving "$f.poll2")
    to=node$((3 - ${from#node}))
    t_mv=$(now)
    move_cmd "$s" "$from" "$to" || { tail -5 "$OUT/move.log" >&2; die "$s round $r: the move command failed"; }
    t_mvdone=$(now)
    t_mvsrv=$(first_answer "$f.poll2" "$t_mv" 120 "$to") || die "$s round $r: $to not serving 120 s after the move"
    echo "$((t_mvsrv - t_mv))" >>"$OUT/$s.move"
    sleep 3
    [[ $(serving "$f.poll2") == "$to" ]] || die "$s round $r: $to stopped serving after the move"
    t_off=$(now)
    "$LAB" poweroff "$to" >/dev/null 2>&1
    t_fo=$(first_answer "$f.poll2" "$t_off" 120 "$from") || die "$s round $r: $from not serving 120 s after $to lost power"
    poll_stop
    echo "$((t_fo - t_off))" >>"$OUT/$s.failover"
    if [[ $s == jheartbeat ]]; then
        echo "    [jheartbeat round $r] move (ms from the command):$(steps "$from" "$t_mv" "$t_mv" group-stopping group-stopped)$(steps "$to" "$t_mv" "$t_mv" takeover group-starting group-started) served +$((t_mvsrv - t_mv))" >>"$OUT/steps.log"
        echo "    [jheartbeat round $r] power-off failover (ms from the power-off):$(steps "$from" "$t_off" "$t_off" node-dead group-starting group-started) served +$((t_fo - t_off))" >>"$OUT/steps.log"
    else # Pacemaker's log is on the node's tmpfs: keep the survivor's (start, move and failover)
        in_node "${from#node}" cat /var/log/pacemaker/pacemaker.log >"$OUT/pacemaker.$r.$from.log" 2>/dev/null || true
        echo "    [pacemaker round $r] start command at $t0 ms, served $t_srv; move command $t_mv, served $t_mvsrv; power-off $t_off, served $t_fo (epoch ms; log: $OUT/pacemaker.$r.$from.log)" >>"$OUT/steps.log"
    fi
    printf '  round %d %-10s start->served %5d ms | node1/node2: %d/%d procs, RSS %d/%d kB, PSS %d/%d kB, CPU %d/%d ms (+children %d/%d) in %d s | move %s->%s %5d ms (command returned after %d ms) | power-off failover %5d ms | load %s\n' \
        "$r" "$s" "$((t_srv - t0))" "${cnt[1]}" "${cnt[2]}" "${rss[1]}" "${rss[2]}" "${pss[1]}" "${pss[2]}" \
        "${own[1]}" "${own[2]}" "${kids[1]}" "${kids[2]}" "$CPU_S" "$from" "$to" "$((t_mvsrv - t_mv))" \
        "$((t_mvdone - t_mv))" "$((t_fo - t_off))" "$(load)"
    for n in 1 2; do "$LAB" poweroff "node$n" >/dev/null 2>&1; done
    for n in 1 2; do "$LAB" poweron "node$n" >/dev/null 2>&1; done
}

stat3() { # FILE [DIVISOR] -> "median (min-max)"
    sort -n "$1" | awk -v d="${2:-1}" '{ v[NR] = $1 / d } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        f = (d == 1) ? "%.0f" : "%.1f"; printf(f " (" f "-" f ")", m, v[1], v[NR]) }'
}
med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "vs-pacemaker.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(uname -r), load $(load)"
echo "  machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(awk '$1 == "MemTotal:" { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) RAM"
echo "  corosync $(corosync -v 2>/dev/null | sed -n 's/.*version .\([0-9.]*\).*/\1/p'), pacemaker $(pacemakerd --version 2>/dev/null | head -1 | awk '{print $2}'), java $(java -version 2>&1 | head -1 | cut -d'"' -f2)"
"$LAB" up >"$OUT/up.log" 2>&1 || { cat "$OUT/up.log" >&2; die "lab up failed"; }
eval "$("$LAB" env)"
EXPORT=$LAB_RUN/pcmk-export
if [[ $WATCH == yes ]]; then
    for n in 1 2; do printf 'monitor:\n  heartbeat_class: yes\n' >"$LAB_RUN/node$n/ha.d/jheartbeat.yaml"; done
fi
# what pcmk-node.sh makes at its first run (the cluster's key, the OCF tree with the exported wrapper), made
# here once: the two nodes start at the same time and must not both make them
mkdir -p "$LAB_RUN/pcmk"
"$HB_CMD" export pacemaker --config-dir "$N1_CONFIG_DIR" --out "$EXPORT" --node-address node1=198.18.1.1,198.18.0.1 \
    --node-address node2=198.18.1.2,198.18.0.2 >"$OUT/export.log" 2>&1 || { cat "$OUT/export.log" >&2; die "hb export pacemaker failed"; }
corosync-keygen -k "$LAB_RUN/pcmk/authkey" >/dev/null 2>&1
cp -a /usr/lib/ocf/resource.d "$LAB_RUN/pcmk/ocf.tmp"
install -D -m 755 "$EXPORT/resource.d/jheartbeat/hb-script" "$LAB_RUN/pcmk/ocf.tmp/jheartbeat/hb-script"
mv "$LAB_RUN/pcmk/ocf.tmp" "$LAB_RUN/pcmk/ocf"
echo "  lab $LAB_ID: keepalive $KEEPALIVE, deadtime $DEADTIME (ha.cf) = corosync token $(awk '$1 == "token:" { print $2 }' "$EXPORT/corosync.conf") ms +" \
    "consensus $(awk '$1 == "consensus:" { print $2 }' "$EXPORT/corosync.conf") ms; media eth1 + eth0 (knet links 0 and 1)"
echo "  jheartbeat: $HB_CMD (JVM flags: ${HB_JAVA_OPTS:-packaging defaults}; HB_CDS=$HB_CDS);" \
    "watches the group every 10 s: $WATCH (Pacemaker: monitor ops every 10 s)"
echo "  $ROUNDS rounds, interleaved; warm-up $WARMUP s, idle CPU over $CPU_S s; client polls every 50 ms; raw data: $OUT"
for ((r = 1; r <= ROUNDS; r++)); do
    for s in $STACKS; do round "$s" "$r"; done
done
"$LAB" down >/dev/null 2>&1 || true
echo "  cluster seen after each idle window:"
cat "$OUT/views.log"
echo "  where the time goes:"
cat "$OUT/steps.log"
echo
printf '| %-40s | %-24s | %-24s | %-6s | %s |\n' "per stack, median (min-max) of $ROUNDS" jheartbeat "Corosync + Pacemaker" ratio goal
printf '|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..42})" "$(printf -- '-%.0s' {1..26})" "$(printf -- '-%.0s' {1..26})" "--------" "------"
row() { # LABEL KEY DIVISOR GOAL_RATIO
    local j p ratio met=""
    j=$(med "$OUT/jheartbeat.$2") p=$(med "$OUT/pacemaker.$2")
    ratio=$(awk -v a="$j" -v b="$p" 'BEGIN { printf (b > 0 ? "%.2f" : "-"), (b > 0 ? a / b : 0) }')
    if [[ -n $4 ]]; then
        met=$(awk -v r="$ratio" -v g="$4" 'BEGIN { print (r != "-" && r + 0 <= g + 0) ? "met (<= " g ")" : "MISSED (<= " g ")" }')
    fi
    printf '| %-40s | %-24s | %-24s | %-6s | %s |\n' "$1" "$(stat3 "$OUT/jheartbeat.$2" "$3")" "$(stat3 "$OUT/pacemaker.$2" "$3")" "$ratio" "$met"
}
row "idle RSS per node (MB)" rss 1024 0.5
row "idle PSS per node (MB)" pss 1024 0.5
row "idle CPU per node (ms per ${CPU_S} s)" cpu 1 ""
row "idle CPU per node +children (ms/${CPU_S} s)" cpuall 1 ""
row "start -> served (ms)" start 1 0.999
row "planned move -> other node serves (ms)" move 1 0.999
row "power-off failover (ms)" failover 1 0.999
echo "load average at end: $(load)"
