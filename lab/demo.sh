#!/usr/bin/env bash
# demo.sh — failover demo: VIP 198.18.0.100 + labweb on node1, node1 loses
# power, node2 takes over, node1 comes back and (auto_failback on) takes the
# service back. Prints a timeline (lab/timeline.sh): every line in ms from one
# reference point, node1's power-off; failback is measured from node1's
# power-on. The log paths are printed at the end (the run dir survives).
# "demo.sh townhall" runs the town hall demo instead (lab/townhall/demo.sh); any other
# argument is refused (exit 2) before anything runs.
#
# Builds nothing: expects cli/target/hb.jar (or HB_JAR / HB_CMD, see lab.sh).
# Env: LAB_ID (default demo), DEMO_START_TIMEOUT (s, default 90),
# DEMO_FAILOVER_TIMEOUT (default 60), DEMO_FAILBACK_TIMEOUT (default 90),
# LAB_HTTP_TIMEOUT (curl -m per poll, default 0.5 here), plus the lab.sh
# variables (LAB_KEEPALIVE, LAB_DEADTIME, ...). The lab is torn down on exit.
set -euo pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The only argument is the demo's name: a typo ("townhal") must not run the other demo.
if (($# > 1)) || [[ $# == 1 && $1 != townhall ]]; then
    echo "demo: unknown argument '$*' (accepted: townhall, or nothing)" >&2
    exit 2
fi
# demo.sh townhall: the town hall with real services (lab/townhall/demo.sh, docs/townhall.md)
if [[ ${1:-} == townhall ]]; then
    exec "$LAB_DIR/townhall/demo.sh"
fi
L=$LAB_DIR/lab.sh
export LAB_ID=${LAB_ID:-demo}
export LAB_HTTP_TIMEOUT=${LAB_HTTP_TIMEOUT:-0.5}
START_TIMEOUT=${DEMO_START_TIMEOUT:-90}
FAILOVER_TIMEOUT=${DEMO_FAILOVER_TIMEOUT:-60}
FAILBACK_TIMEOUT=${DEMO_FAILBACK_TIMEOUT:-90}
POLL_MS=100

now_ms() {
    local t=${EPOCHREALTIME/./}
    echo $((t / 1000))
}
# EVENTS: "EPOCH_MS TEXT" lines, printed by lab/timeline.sh at the end in time order
EVENTS='' RECORD=0
ev() { EVENTS+="$1 $2"$'\n'; }

eval "$("$L" env)"

fail() {
    local n f
    echo "demo: FAILED: $*" >&2
    if [[ -n ${T0:-} ]]; then
        printf '%s' "$EVENTS" | "$LAB_DIR/timeline.sh" "$T0" "node1's power-off" >&2 || true
    fi
    for n in 1 2; do
        for f in "$LAB_RUN/node$n/daemon.out" "$LAB_RUN/node$n/ha-log"; do
            [[ -f $f ]] || continue
            echo "----- tail of $f" >&2
            tail -n 25 "$f" >&2
        done
    done
    exit 1
}

if [[ -z ${HB_CMD:-} && ! -f $HB_JAR ]]; then
    echo "demo: $HB_JAR not found; build it first (mvn -q package) or set HB_JAR" >&2
    exit 1
fi

# POLL: the answer of the last poll ("" = none) and when it arrived
POLL='' POLL_T=0
poll() {
    local t=$EPOCHREALTIME
    POLL=$("$L" http 2>/dev/null) || POLL=''
    POLL_T=$(now_ms)
    # pace to one poll every POLL_MS
    local spent=$(((${EPOCHREALTIME/./} - ${t/./}) / 1000))
    if ((spent < POLL_MS)); then
        sleep "0.$(printf '%03d' $((POLL_MS - spent)))"
    fi
}

# wait_for NODE TIMEOUT_S: poll until the VIP answers NODE; prints other
# answers seen on the way (once RECORD=1). Sets HIT_T.
wait_for() {
    local want=$1 deadline last=$POLL
    deadline=$(($(now_ms) + $2 * 1000))
    while (($(now_ms) < deadline)); do
        poll
        if [[ $POLL == "$want" ]]; then
            HIT_T=$POLL_T
            return 0
        fi
        if [[ $POLL != "$last" && $RECORD == 1 ]]; then
            ev "$POLL_T" "  (VIP answers: ${POLL:-nothing})"
        fi
        last=$POLL
    done
    return 1
}

echo "demo: lab '$LAB_ID'; keepalive ${LAB_KEEPALIVE:-500ms} deadtime ${LAB_DEADTIME:-3} initdead ${LAB_INITDEAD:-10} auto_failback ${LAB_AUTO_FAILBACK:-on}"
"$L" up || {
    echo "demo: lab.sh up failed (a leftover lab? LAB_ID=$LAB_ID $L down)" >&2
    exit 1
}
logs() {
    echo "demo: logs (kept after the lab is torn down; LAB_ID=$LAB_ID $L clean removes them):"
    for n in 1 2; do
        echo "  node$n: $LAB_RUN/node$n/ha-log $LAB_RUN/node$n/daemon.out"
    done
}
trap '"$L" down >/dev/null 2>&1 || "$L" down || true; logs' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$L" start node1
"$L" start node2
echo "demo: waiting (up to ${START_TIMEOUT}s) for the VIP to be served by node1 ..."
wait_for node1 "$START_TIMEOUT" || fail "VIP not served by node1 within ${START_TIMEOUT}s (last answer: '${POLL}')"
t_node1=$HIT_T
# a few more polls to be sure it is stable before pulling the plug
for _ in 1 2 3; do
    poll
    [[ $POLL == node1 ]] || fail "VIP flapped before the power-off (answered '${POLL}')"
done

RECORD=1
ev "$t_node1" "VIP served by node1"
T0=$(now_ms)
"$L" poweroff node1 2>/dev/null
ev "$T0" "node1 powered off"
echo "demo: node1 powered off; waiting (up to ${FAILOVER_TIMEOUT}s) for node2 ..."
wait_for node2 "$FAILOVER_TIMEOUT" || fail "VIP not served by node2 within ${FAILOVER_TIMEOUT}s after the power-off"
failover_ms=$((HIT_T - T0))
ev "$HIT_T" "VIP served by node2"

# let node2 serve for a moment, then bring node1 back
for _ in $(seq 10); do
    poll
    [[ $POLL == node2 ]] || fail "node2 stopped serving (answered '${POLL}')"
done
t_on=$(now_ms)
"$L" poweron node1 2>/dev/null
ev "$t_on" "node1 powered on"
ev "$(now_ms)" "node1's daemon starting"
"$L" start node1 2>/dev/null
ev "$(now_ms)" "node1's daemon answers on its control socket"
echo "demo: node1 powered on; waiting (up to ${FAILBACK_TIMEOUT}s) for it to serve again ..."
wait_for node1 "$FAILBACK_TIMEOUT" || fail "VIP not served by node1 again within ${FAILBACK_TIMEOUT}s after its power-on"
failback_ms=$((HIT_T - t_on))
ev "$HIT_T" "VIP served by node1 again"
echo
printf '%s' "$EVENTS" | "$LAB_DIR/timeline.sh" "$T0" "node1's power-off"
echo
echo "demo: OK: failover ${failover_ms} ms (node1's power-off to the VIP answering node2), failback ${failback_ms} ms (node1's power-on to the VIP answering node1)"
echo "demo: (resolution: one HTTP poll every ${POLL_MS} ms, curl -m ${LAB_HTTP_TIMEOUT})"
