#!/usr/bin/env bash
# selftest.sh — checks the lab itself (no jheartbeat daemon needed).
# Uses lab ids $ST_A and $ST_B (default sta, stb); needs root, ping, curl,
# socat, arping. Leaves nothing behind. Exit 0 iff every check passed.
set -euo pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
L=$LAB_DIR/lab.sh
A=${ST_A:-sta}
B=${ST_B:-stb}
FAKE=$LAB_DIR/test/fake-hb
fails=0
declare -A SEEN_PIDS=()

ok() { echo "ok   - $*"; }
bad() {
    echo "FAIL - $*"
    fails=$((fails + 1))
}
check() { # check DESCRIPTION CMD...
    local d=$1
    shift
    if "$@" >/dev/null 2>&1; then ok "$d"; else bad "$d"; fi
}
check_not() {
    local d=$1
    shift
    if "$@" >/dev/null 2>&1; then bad "$d"; else ok "$d"; fi
}
st() { # st CMD...: prints "OUTPUT/EXITCODE"
    local o rc=0
    o=$("$@") || rc=$?
    echo "$o/$rc"
}
check_eq() { # check_eq DESCRIPTION EXPECTED ACTUAL
    if [[ $2 == "$3" ]]; then ok "$1"; else bad "$1 (expected '$2', got '$3')"; fi
}
la() { LAB_ID=$A "$L" "$@"; }
lb() { LAB_ID=$B "$L" "$@"; }
ns_of() { ip netns list | awk '{print $1}' | grep -E "^$1-(n1|n2|cl|sw)\$" || true; }
remember_pids() {
    local ns p
    for ns in $(ns_of "$1"); do
        for p in $(ip netns pids "$ns"); do SEEN_PIDS[$p]=$1; done
    done
}
alive() {
    local st
    # (not $(<file): under set -e a missing file would abort the script)
    st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    st=${st##*) }
    [[ ${st:0:1} != Z && ${st:0:1} != X ]]
}
no_leftovers() { # no_leftovers ID
    local p
    [[ -z $(ns_of "$1") ]] || return 1
    for p in "${!SEEN_PIDS[@]}"; do
        [[ ${SEEN_PIDS[$p]} == "$1" ]] || continue
        alive "$p" && [[ $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) == *"sleep infinity"* ||
            $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) == *socat* ||
            $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) == *fake-hb* ]] && return 1
    done
    return 0
}
pingc() { # pingc DESC WHERE... -- DST
    local d=$1 dst=${*: -1}
    shift
    local -a where=("${@:1:$#-1}")
    # retried: an ARP entry that went FAILED while a link was cut takes the
    # kernel a few seconds to resolve again once the link is back
    check "$d" retry 6 "${where[@]}" ping -c1 -W1 "$dst"
}

retry() { # retry N CMD...
    local n=$1 i
    shift
    for ((i = 0; i < n; i++)); do
        "$@" && return 0
    done
    return 1
}

cleanup() { la down >/dev/null 2>&1 || true; lb down >/dev/null 2>&1 || true; }
trap cleanup EXIT
cleanup

echo "# up/down cycles"
for i in 1 2 3; do
    la up 2>/dev/null
    check_eq "cycle $i: 4 namespaces" 4 "$(ns_of "$A" | wc -l)"
    remember_pids "$A"
    la down 2>/dev/null
    check "cycle $i: no leftovers" no_leftovers "$A"
done
check "down twice is fine" la down
check_not "lab not up: exec fails" la exec node1 true
check_not "bad LAB_ID rejected" env LAB_ID=Bad "$L" env
check_not "bad node rejected" la holds node3 1.2.3.4

echo "# two labs at once"
la up 2>/dev/null
lb up 2>/dev/null
eval "$(la env)"
check_eq "hostname node1" node1 "$(la exec node1 hostname)"
check_eq "hostname node2" node2 "$(la exec node2 hostname)"
check_eq "node sees its own /sys" "eth0 eth1 lo" "$(la exec node1 ls /sys/class/net | sort | xargs)"
pingc "node1->node2 eth1" la exec node1 198.18.1.2
pingc "node2->node1 eth1" la exec node2 198.18.1.1
pingc "node1->node2 eth0" la exec node1 198.18.0.2
pingc "client->node1" la client 198.18.0.1
pingc "client->node2" la client 198.18.0.2
check_eq "authkeys mode 600" 600 "$(stat -c %a "$N1_AUTHKEYS")"
check_eq "same key on both nodes" "$(cat "$N1_AUTHKEYS")" "$(cat "$N2_AUTHKEYS")"
check "authkeys default: auth 1 / 1 sha1 <40 hex>" bash -c "[[ \$(paste -sd'|' '$N1_AUTHKEYS') =~ ^auth\ 1\|1\ sha1\ [0-9a-f]{40}\$ ]]"
check_eq "env LAB_AUTH" sha1 "$LAB_AUTH"
check "ha.cf ucast peer eth1" grep -qx 'ucast eth1 198.18.1.2' "$N1_HA_CF"
check "ha.cf ucast peer eth0" grep -qx 'ucast eth0 198.18.0.1' "$N2_HA_CF"
check_eq "haresources default" "node1 198.18.0.100/24/eth0 labweb" "$(cat "$N1_HARESOURCES")"

echo "# labweb"
check_eq "status before start" "stopped/3" "$(st la exec node1 "$N1_LABWEB" status)"
check "start" la exec node1 "$N1_LABWEB" start
check "start is idempotent" la exec node1 "$N1_LABWEB" start
check "start returns with stdout on a pipe" timeout 5 bash -c "LAB_ID=$A '$L' exec node1 '$N1_LABWEB' start | cat"
check_eq "status running" "running/0" "$(st la exec node1 "$N1_LABWEB" status)"
check_eq "one socat" 1 "$(la ps | grep -c 'TCP-LISTEN:8080')"
check_eq "client GET node1:8080" node1 "$(la client curl -s -m1 http://198.18.0.1:8080/)"
check "Content-Length header" bash -c "LAB_ID=$A '$L' client curl -s -i -m1 http://198.18.0.1:8080/ | grep -q 'Content-Length: 6'"
check_eq "20 parallel requests" 20 "$(for _ in $(seq 20); do la client curl -s -m2 http://198.18.0.1:8080/ & done | grep -c node1)"
check_eq "relative invocation from another cwd" running "$(cd "$N1_CONFIG_DIR" && la exec node1 ./resource.d/labweb status)"

echo "# labweb2 beside labweb"
check "labweb2 installed in resource.d" test -x "$N1_LABWEB2"
check_eq "labweb2 status before start" "stopped/3" "$(st la exec node1 "$N1_LABWEB2" status)"
check "labweb2 start (labweb running)" la exec node1 "$N1_LABWEB2" start
check "labweb2 start is idempotent" la exec node1 "$N1_LABWEB2" start
check_eq "both running" "running/0 running/0" "$(st la exec node1 "$N1_LABWEB" status) $(st la exec node1 "$N1_LABWEB2" status)"
check_eq "one socat per port" "1 1" "$(la ps | grep -c 'TCP-LISTEN:8080,') $(la ps | grep -c 'TCP-LISTEN:8081,')"
check "own pid files" bash -c "[[ -s '$N1_STATE_DIR/labweb.pid' && -s '$N1_STATE_DIR/labweb2.pid' && \$(cat '$N1_STATE_DIR/labweb.pid') != \$(cat '$N1_STATE_DIR/labweb2.pid') ]]"
check_eq "client GET node1:8081" node1 "$(la client curl -s -m1 http://198.18.0.1:8081/)"
check_eq "client GET node1:8080 still" node1 "$(la client curl -s -m1 http://198.18.0.1:8080/)"
check "labweb2 stop" la exec node1 "$N1_LABWEB2" stop
check_eq "labweb2 stopped, labweb still running" "stopped/3 running/0" "$(st la exec node1 "$N1_LABWEB2" status) $(st la exec node1 "$N1_LABWEB" status)"
check_not "8081 closed" la client curl -s -m1 http://198.18.0.1:8081/
check "labweb2 stop is idempotent" la exec node1 "$N1_LABWEB2" stop
la exec node1 "$N1_LABWEB2" start >/dev/null
check "labweb stop" la exec node1 "$N1_LABWEB" stop
check_eq "labweb stopped, labweb2 still running" "stopped/3 running/0" "$(st la exec node1 "$N1_LABWEB" status) $(st la exec node1 "$N1_LABWEB2" status)"
check_not "http2 without VIP2" la http2
la exec node1 ip addr add 198.18.0.101/24 dev eth0
la exec node1 arping -q -U -c1 -I eth0 198.18.0.101 || true
check "http2 via VIP2 -> node1" retry 5 bash -c "[[ \$(LAB_ID=$A '$L' http2) == node1 ]]"
la exec node1 ip addr del 198.18.0.101/24 dev eth0
la exec node1 "$N1_LABWEB2" stop >/dev/null
la exec node1 "$N1_LABWEB" start >/dev/null

echo "# packet loss (iptables inside the node)"
# loss_rules NS: node's LAB-LOSS rules, one per line, "-i IF … probability P"
loss_rules() { ip netns exec "$1" iptables -S LAB-LOSS 2>/dev/null | grep -o -- '-i eth[01] .*' | sed 's/ -m udp / /' || true; }
check "loss node1 20" la loss node1 20
check "rule present" bash -c "[[ '$(loss_rules "$NS_N1")' =~ ^-i\ eth1\ -p\ udp\ --dport\ 694\ -m\ statistic\ --mode\ random\ --probability\ 0\.2(0*1[0-9]|0*)\ -j\ DROP\$ ]]"
check_eq "INPUT jumps to LAB-LOSS" "-A INPUT -j LAB-LOSS" "$(ip netns exec "$NS_N1" iptables -S INPUT | grep LAB-LOSS)"
check_eq "node2 untouched" "" "$(loss_rules "$NS_N2")"
check_eq "env N1_LOSS" "20 eth1" "$(eval "$(la env)"; echo "$N1_LOSS")"
check "loss again replaces the rule" la loss node1 50
check_eq "one rule, new probability" 1 "$(loss_rules "$NS_N1" | grep -c 'probability 0\.5')"
check_eq "one jump" 1 "$(ip netns exec "$NS_N1" iptables -S INPUT | grep -c LAB-LOSS)"
check "loss on eth1 and eth0" la loss node1 10 eth1 eth0
check_eq "two rules" "eth1 eth0" "$(loss_rules "$NS_N1" | awk '{print $2}' | xargs)"
check_not "loss: bad percent" la loss node1 120
check_not "loss: percent missing" la loss node1
check_not "loss: bad interface" la loss node1 5 lo
check "noloss" la noloss node1
check_eq "rule absent" 0 "$(ip netns exec "$NS_N1" iptables -S | grep -c LAB-LOSS)"
check_eq "env N1_LOSS empty" "" "$(eval "$(la env)"; echo "$N1_LOSS")"
check "noloss is idempotent" la noloss node1
check "loss 0 = no rule" la loss node1 0
check_eq "loss 0: rule absent" 0 "$(ip netns exec "$NS_N1" iptables -S | grep -c LAB-LOSS)"
la loss node2 20 2>/dev/null
la poweroff node2 2>/dev/null
check_eq "rule survives poweroff" 1 "$(loss_rules "$NS_N2" | grep -c 'probability 0\.2')"
check "noloss on a powered-off node" la noloss node2
check_eq "powered off: rule absent" 0 "$(ip netns exec "$NS_N2" iptables -S | grep -c LAB-LOSS)"
check "loss on a powered-off node" la loss node2 30
la poweron node2 2>/dev/null
check_eq "rule there after poweron" 1 "$(loss_rules "$NS_N2" | grep -c 'probability 0\.[23]9*[0-9]* ')"
la noloss node2 2>/dev/null
check_eq "host namespace has no LAB-LOSS chain" 0 "$(iptables -S 2>/dev/null | grep -c LAB-LOSS)"

echo "# private /srv, /var/lib/jheartbeat; sshd per node"
check_eq "node1's /srv is <run>/node1/srv" "$N1_SRV" "$(la exec node1 findmnt -n -o SOURCE /srv | sed 's/^[^[]*\[\(.*\)\]$/\1/')"
check_eq "node2's /var/lib/jheartbeat is <run>/node2/varlib-jhb" "$N2_VARLIB_JHB" \
    "$(la exec node2 findmnt -n -o SOURCE /var/lib/jheartbeat | sed 's/^[^[]*\[\(.*\)\]$/\1/')"
check "host /srv untouched by a node write" bash -c "LAB_ID=$A '$L' exec node1 sh -c 'echo n1 > /srv/st-mark' && [[ ! -e /srv/st-mark && -e '$N1_SRV/st-mark' ]]"
SSHC=$(la ssh-cmd)
check_eq "env LAB_SSH = ssh-cmd" "$SSHC" "$LAB_SSH"
check_eq "ssh node1 -> node2 (eth1) hostname" node2 "$(la exec node1 $SSHC 198.18.1.2 hostname)"
check_eq "ssh node2 -> node1 (eth0) hostname" node1 "$(la exec node2 $SSHC 198.18.0.1 hostname)"
check "rsync node1:/srv/x -> node2:/srv/x" bash -c "LAB_ID=$A '$L' exec node1 sh -c 'mkdir -p /srv/x && echo data > /srv/x/f' &&
    LAB_ID=$A '$L' exec node1 rsync -a -e '$SSHC' /srv/x/ 198.18.1.2:/srv/x/"
check_eq "rsync landed in node2's /srv" data "$(cat "$N2_SRV/x/f" 2>/dev/null)"
check_not "no password login: ssh without the key fails" la exec node1 ssh -F none -o BatchMode=yes -o ConnectTimeout=3 \
    -o UserKnownHostsFile="$LAB_SSH_KNOWN_HOSTS" -o IdentitiesOnly=yes -i /dev/null 198.18.1.2 true
la poweroff node2 2>/dev/null
check_not "powered off: no sshd" la exec node1 $SSHC 198.18.1.2 true
la poweron node2 2>/dev/null
# (node1's ARP probe for the powered-off node2 may still run out: "No route to host" for up to ~3 s)
check "poweron: sshd back" retry 3 bash -c "[[ \$(LAB_ID=$A '$L' exec node1 $SSHC 198.18.1.2 hostname) == node2 ]]"
check_eq "poweron: node2's /srv kept" data "$(la exec node2 cat /srv/x/f)"

echo "# VIP by hand"
check_not "http without VIP" la http
la exec node1 ip addr add 198.18.0.100/24 dev eth0
la exec node1 arping -q -U -c1 -I eth0 198.18.0.100 || true
check "holds node1 VIP" la holds node1 198.18.0.100
check_not "holds node2 VIP" la holds node2 198.18.0.100
check_eq "http via VIP -> node1" node1 "$(la http)"
# lab B: VIP on node2 at the same time, same addresses, separate world
eval "$(lb env)"
lb exec node2 "$N2_LABWEB" start >/dev/null
lb exec node2 ip addr add 198.18.0.100/24 dev eth0
check_eq "lab B http -> node2" node2 "$(lb http)"
check_eq "lab A http still node1" node1 "$(la http)"
eval "$(la env)"
# move the VIP in lab A to node2
la exec node2 "$N2_LABWEB" start >/dev/null
la exec node1 ip addr del 198.18.0.100/24 dev eth0
la exec node2 ip addr add 198.18.0.100/24 dev eth0
la exec node2 arping -q -U -c1 -I eth0 198.18.0.100 || true
check_eq "moved VIP -> node2" node2 "$(la http)"
check "labweb stop" la exec node2 "$N2_LABWEB" stop
check_eq "status stopped" "stopped/3" "$(st la exec node2 "$N2_LABWEB" status)"
check "stop is idempotent" la exec node2 "$N2_LABWEB" stop

echo "# poweroff / poweron"
remember_pids "$A"
remember_pids "$B"
la poweroff node1 2>/dev/null
check_eq "no process left in node1" "" "$(ip netns pids "$NS_N1")"
check_eq "no IPv4 address on node1" "" "$(ip -n "$NS_N1" -o -4 addr show)"
check_eq "node1 links down" "" "$(ip -n "$NS_N1" -o link show up)"
check_not "exec on powered-off node fails" la exec node1 true
check "poweroff is idempotent" la poweroff node1
check_eq "node1 holder pid empty" "" "$(eval "$(la env)"; echo "$N1_HOLDER_PID")"
la poweron node1 2>/dev/null
check "poweron is idempotent" la poweron node1
check_eq "hostname after poweron" node1 "$(la exec node1 hostname)"
check "eth0 address back" la holds node1 198.18.0.1
check "eth1 address back" la holds node1 198.18.1.1
pingc "node1->node2 eth1 after poweron" la exec node1 198.18.1.2
pingc "client->node1 after poweron" la client 198.18.0.1
check_eq "stale labweb pid file -> stopped" stopped "$(la exec node1 "$N1_LABWEB" status)"

echo "# links"
la linkdown node1 eth0 2>/dev/null
check_not "eth0 cut: node1->node2 eth0" la exec node1 ping -c1 -W1 198.18.0.2
pingc "eth0 cut: eth1 still fine" la exec node1 198.18.1.2
la linkup node1 eth0 2>/dev/null
pingc "eth0 restored" la exec node1 198.18.0.2
la linkdown node2 eth1 2>/dev/null
check_not "eth1 cut: node1->node2 eth1" la exec node1 ping -c1 -W1 198.18.1.2
la poweroff node2 2>/dev/null
la poweron node2 2>/dev/null
check_not "eth1 cut survives a power cycle" la exec node1 ping -c1 -W1 198.18.1.2
la linkup node2 eth1 2>/dev/null
pingc "eth1 restored" la exec node1 198.18.1.2

echo "# uplink cut (ping nodes: the router 198.18.0.254 on the switch)"
pingc "node1->router" la exec node1 198.18.0.254
pingc "node2->router" la exec node2 198.18.0.254
la uplinkcut node1 2>/dev/null
check_not "uplink cut: node1->router" la exec node1 ping -c1 -W1 198.18.0.254
pingc "uplink cut: node2->router still" la exec node2 198.18.0.254
pingc "uplink cut: eth1 still fine" la exec node1 198.18.1.2
la uplinkrestore node1 2>/dev/null
check_eq "uplink restored: no LAB-UPLINK chain" "" "$(ip netns exec "$NS_N1" iptables -S 2>/dev/null | grep LAB-UPLINK)"
pingc "uplink restored: node1->router" la exec node1 198.18.0.254

echo "# serial cable"
eval "$(la env)"
SEEN_PIDS[$SERIAL_PID]=$A
check "tty link node1 -> /dev/pts" bash -c "[[ -L '$N1_TTY' && \$(readlink '$N1_TTY') == /dev/pts/* ]]"
check "tty link node2 -> /dev/pts" bash -c "[[ -L '$N2_TTY' && \$(readlink '$N2_TTY') == /dev/pts/* ]]"
check_eq "cable state plugged" plugged "$SERIAL_STATE"
check_eq "cable socat outside the lab namespaces" "$(readlink /proc/self/ns/net)" "$(readlink "/proc/$SERIAL_PID/ns/net")"
TMPD=$(mktemp -d)
# line_test FROM TO BYTES: BYTES random bytes written to FROM arrive at TO
line_test() {
    head -c "$3" /dev/urandom >"$TMPD/in"
    timeout 2 cat "$2" >"$TMPD/out" &
    local rp=$!
    sleep 0.3
    cat "$TMPD/in" >"$1"
    wait "$rp" || true
    cmp -s "$TMPD/in" "$TMPD/out"
}
check "node1 -> node2: 8-bit clean (4 KiB random)" line_test "$N1_TTY" "$N2_TTY" 4096
check "node2 -> node1: 8-bit clean (4 KiB random)" line_test "$N2_TTY" "$N1_TTY" 4096
check "control bytes pass (NUL ^C ^D CR ^Q ^S ^V DEL 0xff)" bash -c "
    printf '\x00\x03\x04\x0d\x11\x13\x16\x7f\xff\n' >'$TMPD/in'
    timeout 1 cat '$N2_TTY' >'$TMPD/out' & sleep 0.3; cat '$TMPD/in' >'$N1_TTY'; wait
    cmp -s '$TMPD/in' '$TMPD/out'"
timeout 2 cat "$N2_TTY" >"$TMPD/g" &
rp=$!
sleep 0.3
check "serialgarbage node2 1000" la serialgarbage node2 1000
wait "$rp" || true
check_eq "node2's end received 1000 bytes" 1000 "$(stat -c %s "$TMPD/g")"
check_not "serialgarbage needs BYTES" la serialgarbage node2
la poweroff node1 2>/dev/null
check_eq "poweroff leaves the cable plugged" plugged "$(eval "$(la env)"; echo "$SERIAL_STATE")"
la poweron node1 2>/dev/null
check "serialcut" la serialcut
check_eq "cut: state" cut "$(eval "$(la env)"; echo "$SERIAL_STATE")"
check "cut: tty links stay" test -L "$N1_TTY" -a -L "$N2_TTY"
check "cut is idempotent" la serialcut
timeout 1 cat "$N2_TTY" >"$TMPD/c" &
rp=$!
sleep 0.2
printf 'queued\n' >"$N1_TTY"
wait "$rp" || true
check_eq "cut: nothing crosses" 0 "$(stat -c %s "$TMPD/c")"
check_not "serialgarbage refuses a cut cable" la serialgarbage node2 10
timeout 2 cat "$N2_TTY" >"$TMPD/c" &
rp=$!
sleep 0.3
check "serialplug" la serialplug
wait "$rp" || true
check_eq "plug: bytes queued during the cut arrive" queued "$(cat "$TMPD/c")"
check "plugged again: 8-bit clean" line_test "$N1_TTY" "$N2_TTY" 2048
check_eq "same socat after cut/plug" "$SERIAL_PID" "$(eval "$(la env)"; echo "$SERIAL_PID")"
check "serialcut kill" la serialcut kill
check_not "kill: socat gone" alive "$SERIAL_PID"
check_not "kill: tty links gone" test -e "$N1_TTY" -o -L "$N1_TTY" -o -L "$N2_TTY"
check_eq "kill: state removed" removed "$(eval "$(la env)"; echo "$SERIAL_STATE")"
check "serialplug after kill" la serialplug
check "serialplug is idempotent" la serialplug
eval "$(la env)"
SEEN_PIDS[$SERIAL_PID]=$A
check "new socat: links back" test -L "$N1_TTY" -a -L "$N2_TTY"
check "new socat: 8-bit clean" line_test "$N2_TTY" "$N1_TTY" 2048
rm -rf "$TMPD"

echo "# start/stop/status with the fake-hb stand-in"
export HB_CMD=$FAKE LAB_STOP_TIMEOUT=5
check "start node1" la start node1
check "start node2" la start node2
check "start again is a no-op" la start node1
ok_vip=''
for _ in $(seq 100); do
    [[ $(la http 2>/dev/null) == node1 ]] && ok_vip=1 && break
    sleep 0.2
done
check_eq "fake cluster serves node1" 1 "$ok_vip"
check "status node1" bash -c "LAB_ID=$A HB_CMD=$FAKE '$L' status node1 | grep -q holding=1"
remember_pids "$A"
check "stop node1" la stop node1
check_not "node1 released VIP" la holds node1 198.18.0.100
check "stop again is a no-op" la stop node1
la poweroff node2 2>/dev/null
check_eq "poweroff kills daemon + labweb of node2" "" "$(ip netns pids "$NS_N2")"
unset HB_CMD
check_not "start without jar fails clearly" env HB_JAR=/nonexistent LAB_ID="$A" "$L" start node1

echo "# teardown"
la down 2>/dev/null
la down 2>/dev/null
check "lab A gone" no_leftovers "$A"
check_eq "lab B untouched by A's down" node2 "$(lb http)"
lb down 2>/dev/null
check "lab B gone" no_leftovers "$B"
check_not "lab A serial socat gone" alive "$SERIAL_PID"
check_not "lab A tty links gone" test -L "$N1_TTY" -o -L "$N2_TTY"

echo "# ha.cf media (LAB_MEDIA)"
# media_of ID MEDIA: the medium lines of node1's ha.cf, joined by '|'
media_of() {
    LAB_MEDIA=$2 la up 2>/dev/null
    grep -E '^(baud|serial|udpport|ucast|bcast|mcast) ' "$(eval "$(la env)"; echo "$N1_HA_CF")" |
        sed "s#$(eval "$(la env)"; echo "$N1_TTY")#TTY#" | paste -sd'|' -
    la down 2>/dev/null
}
check_eq "ucast (default)" "udpport 694|ucast eth1 198.18.1.2|ucast eth0 198.18.0.2" "$(media_of "$A" ucast)"
check_eq "serial" "baud 19200|serial TTY" "$(media_of "$A" serial)"
check_eq "serial+ucast" "baud 19200|serial TTY|udpport 694|ucast eth1 198.18.1.2" "$(media_of "$A" serial+ucast)"
check_eq "all" "baud 19200|serial TTY|udpport 694|ucast eth1 198.18.1.2|ucast eth0 198.18.0.2" "$(media_of "$A" all)"
check_not "bad LAB_MEDIA rejected" env LAB_MEDIA=bogus LAB_ID="$A" "$L" up
check_not "bad LAB_NODE1 rejected" env LAB_NODE1=bogus LAB_ID="$A" "$L" up
check_not "bad LAB_AUTH rejected" env LAB_AUTH=sha256 LAB_ID="$A" "$L" up
check_not "bad LAB_GROUPS rejected" env LAB_GROUPS=three LAB_ID="$A" "$L" up

echo "# authkeys (LAB_AUTH) and groups (LAB_GROUPS)"
# auth_of AUTH: node1's authkeys joined by '|', key replaced by KEY, then
# mode of both files and whether they are equal
auth_of() {
    LAB_AUTH=$1 la up 2>/dev/null
    (
        eval "$(la env)"
        echo "$(sed -E 's/ [0-9a-f]{40}$/ KEY/' "$N1_AUTHKEYS" | paste -sd'|' -)" \
            "$(stat -c %a "$N1_AUTHKEYS") $(stat -c %a "$N2_AUTHKEYS")" \
            "$(cmp -s "$N1_AUTHKEYS" "$N2_AUTHKEYS" && echo same)" "$LAB_AUTH"
    )
    la down 2>/dev/null
}
check_eq "sha1" "auth 1|1 sha1 KEY 600 600 same sha1" "$(auth_of sha1)"
check_eq "md5" "auth 1|1 md5 KEY 600 600 same md5" "$(auth_of md5)"
check_eq "crc (no key)" "auth 1|1 crc 600 600 same crc" "$(auth_of crc)"
LAB_AUTH=crc la up 2>/dev/null
check_eq "crc: the lab vouches for its links" "authkeys:|  crc_links: [eth0,eth1]" \
    "$(eval "$(la env)"; paste -sd'|' "$(dirname "$N1_AUTHKEYS")/jheartbeat.yaml")"
la down 2>/dev/null
LAB_GROUPS=active-active la up 2>/dev/null
check_eq "active-active haresources" "node1 198.18.0.100/24/eth0 labweb|node2 198.18.0.101/24/eth0 labweb2" \
    "$(eval "$(la env)"; paste -sd'|' "$N2_HARESOURCES")"
la down 2>/dev/null
LAB_GROUPS=active-active LAB_HARESOURCES="node2 198.18.0.100/24/eth0" la up 2>/dev/null
check_eq "LAB_HARESOURCES wins over LAB_GROUPS" "node2 198.18.0.100/24/eth0" "$(eval "$(la env)"; cat "$N1_HARESOURCES")"
la down 2>/dev/null
check_eq "rejected up leaves no namespace" "" "$(ns_of "$A")"

if [[ -x /usr/libexec/heartbeat/heartbeat ]]; then
    echo "# real-heartbeat node (no daemon started)"
    LAB_NODE2=heartbeat la up 2>/dev/null
    eval "$(la env)"
    remember_pids "$A"
    check_eq "kinds" "jheartbeat heartbeat" "$N1_KIND $N2_KIND"
    check_eq "real node: IPaddr2 haresources" "node1 IPaddr2::198.18.0.100/24/eth0 labweb" "$(cat "$N2_HARESOURCES")"
    check_eq "jheartbeat node: haresources unchanged" "node1 198.18.0.100/24/eth0 labweb" "$(cat "$N1_HARESOURCES")"
    check_eq "real node sees its ha.cf at /etc/ha.d" "$(cat "$N2_HA_CF")" "$(la exec node2 cat /etc/ha.d/ha.cf)"
    check "real node has Debian's harc" la exec node2 test -x /etc/ha.d/harc
    check "real node: private /run with heartbeat/ and lock/" la exec node2 test -d /run/heartbeat -a -d /var/lock
    check_eq "real node: private /var/lib/heartbeat" "$(stat -c %i "$N2_VARLIB")" "$(la exec node2 stat -c %i /var/lib/heartbeat)"
    check_eq "jheartbeat node keeps the host's /etc/ha.d" "$(stat -c %i /etc/ha.d)" "$(la exec node1 stat -c %i /etc/ha.d)"
    check_eq "real node hostname" node2 "$(la exec node2 hostname)"
    check "status of a stopped real node says so" bash -c "LAB_ID=$A '$L' status node2 | grep -q 'stopped'"
    check_not "clstatus on a jheartbeat node refused" la clstatus node1 hbstatus
    la poweroff node2 2>/dev/null
    la poweron node2 2>/dev/null
    check "real node after a power cycle: mounts back" la exec node2 test -d /run/heartbeat -a -x /etc/ha.d/harc
    la down 2>/dev/null
    LAB_NODE2=heartbeat LAB_GROUPS=active-active la up 2>/dev/null
    eval "$(la env)"
    check_eq "real node: active-active IPaddr2 haresources" \
        "node1 IPaddr2::198.18.0.100/24/eth0 labweb|node2 IPaddr2::198.18.0.101/24/eth0 labweb2" "$(paste -sd'|' "$N2_HARESOURCES")"
    check "real node has labweb2 at /etc/ha.d/resource.d" la exec node2 test -x /etc/ha.d/resource.d/labweb2
    la down 2>/dev/null
    check "real-node lab gone" no_leftovers "$A"
else
    echo "# (heartbeat package not installed: real-node checks skipped)"
fi

echo
if ((fails)); then
    echo "selftest: $fails check(s) FAILED"
    exit 1
fi
echo "selftest: all checks passed"
