#!/usr/bin/env bash
# lab.sh — two-node network-namespace lab for jheartbeat. See lab/README.md.
set -euo pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$LAB_DIR/.." && pwd)
PROG=lab.sh

usage() {
    cat <<EOF
usage: [LAB_ID=id] $PROG COMMAND [ARGS]

Lab topology (all inside namespaces named \$LAB_ID-*):
  \$LAB_ID-n1 node1  eth0 198.18.0.1/24 (LAN)  eth1 198.18.1.1/24 (crossover)
  \$LAB_ID-n2 node2  eth0 198.18.0.2/24 (LAN)  eth1 198.18.1.2/24 (crossover)
  \$LAB_ID-cl client eth0 198.18.0.10/24
  \$LAB_ID-sw switch: bridge br0 with ports p1 p2 pcl (LAN)

Commands (NODE = node1|node2, also n1|n2|1|2):
  up                 create namespaces, links, holders (nodes powered on),
                     config dirs; daemons are NOT started
  down               kill every lab process, delete the namespaces (idempotent)
  clean              down, then remove the run dir
  start NODE         start the daemon inside NODE (background)
  stop NODE          SIGTERM the daemon, SIGKILL (its process group) after 15 s
  poweroff NODE      SIGKILL every process of NODE, flush+down its interfaces
  poweron NODE       new holder (UTS host name), base addresses, links up
  linkdown NODE IF   cut cable IF (eth0|eth1) of NODE;  linkup NODE IF restores
  exec NODE [CMD..]  run CMD (default: bash) in NODE's netns+UTS (+mount) ns
  client [CMD..]     run CMD (default: bash) in the client namespace
  http               GET http://\$LAB_VIP:8080/ from the client; prints the body
                     (exit 0) or nothing (exit != 0)
  http2              the same for http://\$LAB_VIP2:8081/ (labweb2)
  holds NODE IP      exit 0 iff NODE's namespace has IPv4 address IP
  hb NODE [ARGS..]   hb ARGS inside jheartbeat NODE with its --config-dir,
                     --state-dir, --node-name (where ARGS' command takes
                     them); exit code: hb's. E.g. hb node1 status,
                     hb node2 standby, hb node1 events --since 5min
  status NODE        hb status --state-dir <NODE state dir> (inside NODE);
                     for a real-heartbeat node: a cl_status summary
  clstatus NODE ARGS..  cl_status ARGS inside a real-heartbeat NODE
  hbcmd NODE hb_standby|hb_takeover [ARGS]
                     /usr/share/heartbeat/hb_standby|hb_takeover inside NODE
  swap NODE jheartbeat|heartbeat
                     the other daemon on a node made with LAB_NODEn=heartbeat,
                     same files (its daemon stopped); the next start runs it
  serialcut [kill]   pull the null-modem cable: nothing crosses, the ttys
                     <run>/nodeN/ttyS0 stay (socat SIGSTOPped); with kill:
                     kill the socat, the ttys and their links vanish
  serialplug         plug it back (SIGCONT, or a new socat with the same link
                     paths after serialcut kill); idempotent
  serialgarbage NODE BYTES
                     write BYTES random bytes into the peer's end of the
                     cable, so that NODE reads them
  upsstop NODE       (LAB_STONITH=apcsmart) unplug the UPS that powers NODE:
                     its simulator stops, fencing NODE fails; upsstart NODE
                     plugs it back
  freeze NODE        SIGSTOP every process of NODE (a hung machine); thaw NODE
                     sends SIGCONT
  loss NODE PERCENT [IF..]
                     drop PERCENT % (random) of the UDP packets to port 694
                     arriving on NODE's eth1 (or the IFs given: eth0 eth1);
                     iptables in NODE's netns
  noloss NODE        remove those rules (idempotent)
  uplinkcut NODE..   cut each NODE's LAN uplink: iptables inside NODE's netns
                     drops everything in and out of its eth0 (the crossover
                     eth1 stays), so the router 198.18.0.254 no longer answers it
  uplinkrestore NODE..  remove those rules (idempotent)
  ps                 list the lab's processes per namespace
  env                print shell-sourceable variables (paths, pids, names)
  ssh-cmd            print the ssh command line for node-to-node ssh/rsync
                     (run it inside a node: every jheartbeat node runs an
                     sshd on 198.18.0.N:22 and 198.18.1.N:22, root, key only),
                     e.g. lab.sh exec node1 \$(lab.sh ssh-cmd) 198.18.1.2 hostname

jheartbeat nodes have their own /srv and /var/lib/jheartbeat (bind mounts of
<run>/nodeN/srv and <run>/nodeN/varlib-jhb in the node's mount namespace).
  srvumount NODE     (LAB_SYNC=web) unmount NODE's data partition from /srv/web
                     (an empty directory shows); srvmount NODE mounts it back
  privdev NODE       give NODE its own /dev (a tmpfs of symlinks to the real
                     devices, in NODE's mount namespace only), for /dev/log
  syslogd NODE start|stop
                     a test syslog receiver (socat) on NODE's own /dev/log,
                     appending each datagram to <run>/nodeN/syslog.out

Environment: LAB_ID (default lab, ^[a-z0-9]{1,8}\$), LAB_RUN (default
lab/run/\$LAB_ID), HB_JAR (default <repo>/cli/target/hb.jar), LAB_SIM_JAR
(default <repo>/lab/target/lab-sim.jar, the UPS simulator), HB_JAVA_OPTS,
HB_CMD (replaces "java \$HB_JAVA_OPTS -jar \$HB_JAR" for start/status),
LAB_KEEPALIVE LAB_DEADTIME LAB_WARNTIME LAB_INITDEAD LAB_AUTO_FAILBACK
LAB_PING (ping node addresses for ha.cf, e.g. 198.18.0.254, the router),
LAB_DEADPING, LAB_IPFAIL=1 (adds "respawn hacluster /usr/libexec/heartbeat/ipfail")
LAB_HARESOURCES (used by up), LAB_VIP (default 198.18.0.100),
LAB_HTTP_TIMEOUT (curl -m, default 1), LAB_STOP_TIMEOUT (default 15),
LAB_MEDIA (up: ucast|serial|serial+ucast|all|mcast, default ucast; mcast:
groups 239.0.0.1 on eth1 and 239.0.0.2 on eth0, port 694, ttl 1, loop 0), LAB_BAUD
(default 19200), LAB_NODE1 / LAB_NODE2 (up: jheartbeat|heartbeat, default
jheartbeat; heartbeat = the real Heartbeat 3.0.6 from the Debian package),
LAB_STONITH (up: none|apcsmart, default none: a simulated APC UPS per node
on ttyS1, see upsstop/upsstart/freeze/thaw),
LAB_AUTH (up: sha1|md5|crc, default sha1), LAB_GROUPS (up: single|
active-active, default single), LAB_VIP2 (default 198.18.0.101),
LAB_NODE_INIT (up: absolute path of a script each jheartbeat node's holder runs as root in
the node's mount namespace at every power-on, args: node number, node run dir; see
lab/townhall/node-init.sh), LAB_PRIVATE_RUN (0|1, default 0; 1: a jheartbeat node gets its own tmpfs
/run, with /run/sshd, /run/lock and /run/resource-agents, so pid files of LSB
services and OCF agents' state files are per node), LAB_SYNC (up: none|web, default none; web: <run>/nodeN/disk-web mounted on
/srv/web in each node and a sync.yaml job "web" replicating it to the peer
while labweb runs there), LAB_SYNC_SCHEDULE (default "*/5 * * * * *": every
5 s, 6-field cron), LAB_SYNC_MAX_LOSS (default 0.5).
EOF
}

die() {
    echo "${PROG}[$LAB_ID]: error: $*" >&2
    exit 1
}
log() { echo "${PROG}[$LAB_ID]: $*" >&2; }

LAB_ID=${LAB_ID:-lab}
[[ $LAB_ID =~ ^[a-z0-9]{1,8}$ ]] || {
    echo "$PROG: LAB_ID must match ^[a-z0-9]{1,8}\$ (got '$LAB_ID')" >&2
    exit 2
}
if [[ -n ${LAB_RUN:-} ]]; then
    RUN=$(realpath -m -- "$LAB_RUN")
else
    RUN=$LAB_DIR/run/$LAB_ID
fi
HB_JAR=${HB_JAR:-$REPO/cli/target/hb.jar}
LAB_SIM_JAR=${LAB_SIM_JAR:-$REPO/lab/target/lab-sim.jar}
HB_JAVA_OPTS=${HB_JAVA_OPTS:--Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}
LAB_VIP=${LAB_VIP:-198.18.0.100}
LAB_VIP2=${LAB_VIP2:-198.18.0.101}
LAB_AUTH=${LAB_AUTH:-sha1}
LAB_GROUPS=${LAB_GROUPS:-single}
LAB_HTTP_TIMEOUT=${LAB_HTTP_TIMEOUT:-1}
LAB_STOP_TIMEOUT=${LAB_STOP_TIMEOUT:-15}
LAB_MEDIA=${LAB_MEDIA:-ucast}
LAB_BAUD=${LAB_BAUD:-19200}
# STONITH: none, or apcsmart (a simulated APC Smart-UPS per node on ttyS1)
LAB_STONITH=${LAB_STONITH:-none}
LAB_SYNC=${LAB_SYNC:-none}
LAB_PRIVATE_RUN=${LAB_PRIVATE_RUN:-0}
# Real Heartbeat 3.0.6 (Debian package "heartbeat")
REALHB=${LAB_REALHB:-/usr/libexec/heartbeat/heartbeat}
REALHB_SHARE=/usr/share/heartbeat
SERIAL_PIDFILE=$RUN/serial.pid
# packet loss on the crossover: an iptables chain of this name inside the
# node's netns, jumped to from INPUT
LOSS_CHAIN=LAB-LOSS
# a cut LAN uplink: a chain of this name jumped to from INPUT and OUTPUT
UPLINK_CHAIN=LAB-UPLINK
# the "router" on the LAN (an address of the switch's bridge): the ping node
ROUTER_IP=198.18.0.254

NS_N1=$LAB_ID-n1
NS_N2=$LAB_ID-n2
NS_CL=$LAB_ID-cl
NS_SW=$LAB_ID-sw
ALL_NS=("$NS_N1" "$NS_N2" "$NS_CL" "$NS_SW")
CLIENT_IP=198.18.0.10
MARKER=.jheartbeat-lab-run

# ---------------------------------------------------------------- helpers

# node_num NODE -> 1|2
node_num() {
    case ${1:-} in
        node1 | n1 | 1) echo 1 ;;
        node2 | n2 | 2) echo 2 ;;
        *) die "unknown node '${1:-}' (node1|node2)" ;;
    esac
}
node_ns() { echo "$LAB_ID-n$1"; }
node_dir() { echo "$RUN/node$1"; }
peer_of() { echo $((3 - $1)); }

ns_exists() { [[ -e /run/netns/$1 ]]; }
ns_inode() { stat -L -c %i "/run/netns/$1" 2>/dev/null; }
require_up() {
    local ns
    for ns in "${ALL_NS[@]}"; do
        ns_exists "$ns" || die "lab '$LAB_ID' is not up (run: LAB_ID=$LAB_ID $PROG up)"
    done
}

# alive PID: exists and is not a zombie (PID 1 here may not reap orphans)
alive() {
    local st
    [[ ${1:-} =~ ^[0-9]+$ ]] || return 1
    # (not $(<file): under set -e a missing file would abort the script)
    st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    st=${st##*) }
    [[ -n $st && ${st:0:1} != Z && ${st:0:1} != X ]]
}

# in_ns PID NS: process PID lives in network namespace NS
in_ns() {
    local ino
    ino=$(ns_inode "$2") || return 1
    [[ $(readlink "/proc/$1/ns/net" 2>/dev/null) == "net:[$ino]" ]]
}

# pidfile_pid FILE NS: print the pid from FILE if alive and inside NS
pidfile_pid() {
    local pid
    [[ -r $1 ]] || return 1
    pid=$(cat "$1" 2>/dev/null) || return 1
    alive "$pid" && in_ns "$pid" "$2" || return 1
    echo "$pid"
}

holder_pid() { pidfile_pid "$(node_dir "$1")/holder.pid" "$(node_ns "$1")"; }
node_tty() { echo "$(node_dir "$1")/ttyS0"; }

# node_kind N -> jheartbeat|heartbeat, as chosen at `up` (LAB_NODEn),
# recorded in <node>/kind
node_kind() {
    local k
    k=$(cat "$(node_dir "$1")/kind" 2>/dev/null) || k=jheartbeat
    echo "${k:-jheartbeat}"
}
is_real() { [[ $(node_kind "$1") == heartbeat ]]; }

# kind_from_env N -> the LAB_NODEn value to use at `up`
kind_from_env() {
    local var=LAB_NODE$1 k
    k=${!var:-jheartbeat}
    case $k in
        jheartbeat | jhb) echo jheartbeat ;;
        heartbeat | real) echo heartbeat ;;
        *) die "$var must be jheartbeat or heartbeat (got '$k')" ;;
    esac
}

# serial_pid: pid of the cable's socat if it runs (pid file checked: alive,
# a socat whose command line names this lab's node1 tty link)
serial_pid() {
    local pid
    [[ -r $SERIAL_PIDFILE ]] || return 1
    pid=$(cat "$SERIAL_PIDFILE" 2>/dev/null) || return 1
    alive "$pid" || return 1
    [[ $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) == socat*"link=$(node_tty 1),"* ]] || return 1
    echo "$pid"
}

# session_pids SID NS: live processes of session SID inside netns NS
session_pids() {
    local p st f
    for p in $(ns_pids "$2"); do
        st=$(cat "/proc/$p/stat" 2>/dev/null) || continue
        st=${st##*) }
        read -r -a f <<<"$st"
        [[ ${f[3]:-} == "$1" && ${f[0]} != Z && ${f[0]} != X ]] && echo "$p"
    done
    return 0
}
daemon_pid() { pidfile_pid "$(node_dir "$1")/daemon.pid" "$(node_ns "$1")"; }

ns_pids() { ip netns pids "$1" 2>/dev/null || true; }

# kill_ns NS: SIGKILL every process in NS until none is left (max ~5 s)
kill_ns() {
    local ns=$1 i pids
    for ((i = 0; i < 50; i++)); do
        pids=$(ns_pids "$ns")
        [[ -z $pids ]] && return 0
        # shellcheck disable=SC2086  # word splitting of the pid list is intended
        kill -KILL $pids 2>/dev/null || true
        sleep 0.1
    done
    pids=$(ns_pids "$ns")
    [[ -z $pids ]] && return 0
    log "processes survive SIGKILL in $ns: $pids"
    return 1
}

# node_enter N [DIR]: set NODE_ENTER to the nsenter prefix for node N (dies if
# powered off). Enters the holder's net, UTS and mount namespaces (the mount
# ns made by ip netns exec has the node's /sys); cwd becomes DIR (default $PWD).
node_enter() {
    local hp
    hp=$(holder_pid "$1") || die "node$1 is powered off (run: LAB_ID=$LAB_ID $PROG poweron node$1)"
    NODE_ENTER=(nsenter -t "$hp" -n -u -m "--wd=${2:-$PWD}" --)
}

hb_cmd() {
    if [[ -n ${HB_CMD:-} ]]; then
        read -r -a HB <<<"$HB_CMD"
    else
        [[ -f $HB_JAR ]] || die "daemon jar not found: $HB_JAR (build it, or set HB_JAR / HB_CMD)"
        local -a jopts
        read -r -a jopts <<<"$HB_JAVA_OPTS"
        # SIGHUP at its default: a caller started under nohup would leave it ignored, and the JVM
        # then never installs the daemon's reload handler
        HB=(env --default-signal=HUP java "${jopts[@]}" -jar "$HB_JAR")
    fi
}

# ---------------------------------------------------------------- config

# media_lines N: the media part of node N's ha.cf for $LAB_MEDIA. Heartbeat
# order rules: `baud` before `serial`, `udpport` before any ucast.
media_lines() {
    local n=$1 p
    p=$(peer_of "$n")
    case $LAB_STONITH in
        none | apcsmart) ;;
        *) die "LAB_STONITH must be none or apcsmart (got '$LAB_STONITH')" ;;
    esac
    case $LAB_MEDIA in
        ucast | serial | serial+ucast | all) ;;
        mcast)
            # multicast inside the lab's namespaces only (239.0.0.0/8, ttl 1)
            echo "mcast eth1 239.0.0.1 694 1 0"
            echo "mcast eth0 239.0.0.2 694 1 0"
            return 0
            ;;
        *) die "LAB_MEDIA must be ucast, serial, serial+ucast, all or mcast (got '$LAB_MEDIA')" ;;
    esac
    if [[ $LAB_MEDIA != ucast ]]; then
        echo "baud $LAB_BAUD"
        echo "serial $(node_tty "$n")"
    fi
    [[ $LAB_MEDIA != serial ]] || return 0
    echo "udpport 694"
    echo "ucast eth1 198.18.1.$p"
    [[ $LAB_MEDIA == serial+ucast ]] || echo "ucast eth0 198.18.0.$p"
}

# real_haresources: haresources on stdin, rewritten for a real Heartbeat
# node: a bare IP resource (1.2.3.4/24/eth0, which Heartbeat maps to the
# IPaddr agent) and IPaddr::… become IPaddr2::… (IPaddr fails inside a
# network namespace, IPaddr2 works). Comment lines pass unchanged.
real_haresources() {
    awk '/^[ \t]*(#|$)/ { print; next }
        { for (i = 1; i <= NF; i++) {
              if ($i ~ /^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+(\/|$)/) $i = "IPaddr2::" $i
              else if ($i ~ /^IPaddr::/) sub(/^IPaddr::/, "IPaddr2::", $i)
          }
          print }'
}

# authkeys_text: the authkeys for $LAB_AUTH ($AUTH_KEY made by up):
# "auth 1" + "1 sha1 KEY" | "1 md5 KEY" | "1 crc" (crc takes no key)
authkeys_text() {
    case $LAB_AUTH in
        sha1 | md5) printf 'auth 1\n1 %s %s\n' "$LAB_AUTH" "$AUTH_KEY" ;;
        crc) printf 'auth 1\n1 crc\n' ;;
        *) die "LAB_AUTH must be sha1, md5 or crc (got '$LAB_AUTH')" ;;
    esac
}

# haresources_text: $LAB_HARESOURCES if set, else the groups of $LAB_GROUPS:
# single = node1 VIP labweb; active-active = that + node2 VIP2 labweb2
haresources_text() {
    case $LAB_GROUPS in
        single | active-active) ;;
        *) die "LAB_GROUPS must be single or active-active (got '$LAB_GROUPS')" ;;
    esac
    if [[ -n ${LAB_HARESOURCES:-} ]]; then
        printf '%s\n' "$LAB_HARESOURCES"
        return
    fi
    echo "node1 $LAB_VIP/24/eth0 labweb"
    [[ $LAB_GROUPS != active-active ]] || echo "node2 $LAB_VIP2/24/eth0 labweb2"
}

write_node_config() {
    local n=$1 kind cfg d f
    kind=$(kind_from_env "$n")
    d=$(node_dir "$n")
    cfg=$d/ha.d
    mkdir -p "$cfg/resource.d" "$d/state"
    echo "$kind" >"$d/kind"
    if [[ $kind == heartbeat ]]; then
        # The real node's /etc/ha.d is this directory (bind-mounted by the
        # holder): Debian's scripts first, the lab's files on top.
        for f in harc rc.d resource.d shellfuncs; do
            [[ -e /etc/ha.d/$f ]] || die "/etc/ha.d/$f missing: is the heartbeat package installed?"
            cp -a "/etc/ha.d/$f" "$cfg/"
        done
        # private /var/lib/heartbeat (generation, uuid, FIFO, cores); kept
        # across power cycles like a disk, recreated by up
        rm -rf "$d/varlib"
        cp -a /var/lib/heartbeat "$d/varlib"
    fi
    {
        echo "# generated by lab/lab.sh for lab '$LAB_ID', node$n ($kind, LAB_MEDIA=$LAB_MEDIA)"
        echo "logfile $d/ha-log"
        [[ $kind != heartbeat ]] || echo "debugfile $d/ha-debug"
        echo "keepalive ${LAB_KEEPALIVE:-500ms}"
        echo "deadtime ${LAB_DEADTIME:-3}"
        echo "warntime ${LAB_WARNTIME:-2}"
        echo "initdead ${LAB_INITDEAD:-10}"
        media_lines "$n"
        # node n's ttyS1 is cabled to the UPS that powers its peer
        [[ $LAB_STONITH != apcsmart ]] ||
            echo "stonith_host node$n apcsmart $(node_dir "$n")/ttyS1 node$(peer_of "$n")"
        echo "auto_failback ${LAB_AUTO_FAILBACK:-on}"
        [[ -z ${LAB_PING:-} ]] || echo "ping $LAB_PING"
        [[ -z ${LAB_DEADPING:-} ]] || echo "deadping $LAB_DEADPING"
        # Debian's path of Heartbeat's ipfail (a real node runs it; jheartbeat reads the line as
        # "ipfail rule on", whatever the directory)
        [[ ${LAB_IPFAIL:-0} != 1 ]] || echo "respawn hacluster /usr/libexec/heartbeat/ipfail"
        echo "node node1"
        echo "node node2"
        echo "crm no"
    } >"$cfg/ha.cf"
    (
        umask 077
        authkeys_text >"$cfg/authkeys"
    )
    chmod 600 "$cfg/authkeys"
    # crc authenticates nothing, so jheartbeat refuses it on a network link unless the admin vouches for the
    # link; the lab's links are veth pairs between its own namespaces, as good as crossover cables
    if [[ $LAB_AUTH == crc && $kind != heartbeat ]]; then
        printf 'authkeys:\n  crc_links: [%s]\n' "$(media_lines "$n" | awk '$1 ~ /^(ucast|mcast|bcast)$/ { print $2 }' |
            sort -u | paste -sd, -)" >"$cfg/jheartbeat.yaml"
    fi
    if [[ $kind == heartbeat ]]; then
        haresources_text | real_haresources >"$cfg/haresources"
    else
        haresources_text >"$cfg/haresources"
    fi
    [[ $LAB_SYNC == none || $kind == heartbeat ]] || write_sync_config "$n"
    install -m 755 "$LAB_DIR/resource.d/labweb" "$cfg/resource.d/labweb"
    install -m 755 "$LAB_DIR/resource.d/labweb2" "$cfg/resource.d/labweb2"
    install -m 755 "$LAB_DIR/resource.d/labflaky" "$cfg/resource.d/labflaky"
}

# write_sync_config N (LAB_SYNC=web): node N's "data partition" <node>/disk-web,
# mounted on /srv/web inside the node by its holder, and a sync.yaml with one
# job replicating /srv/web to the peer (rsync over the lab's ssh, crossover
# link) whenever the labweb group runs here.
write_sync_config() {
    local n=$1 d
    [[ $LAB_SYNC == web ]] || die "LAB_SYNC must be none or web (got '$LAB_SYNC')"
    d=$(node_dir "$n")
    mkdir -p "$d/disk-web"
    echo web >"$RUN/sync"
    cat >"$d/ha.d/sync.yaml" <<EOF
# generated by lab/lab.sh for lab '$LAB_ID', node$n (LAB_SYNC=$LAB_SYNC)
state_dir: /var/lib/jheartbeat/sync
ssh: $(ssh_cmd_line)
nodes:
  node1: 198.18.1.1
  node2: 198.18.1.2
jobs:
  web:
    group: labweb
    paths: [/srv/web]
    schedule: "${LAB_SYNC_SCHEDULE:-*/5 * * * * *}"
    require_mount: true
    max_loss: ${LAB_SYNC_MAX_LOSS:-0.5}
    retries: 1
    retry_delay: 2s
    timeout: 5m
EOF
}

# ---------------------------------------------------------------- syslog

# cmd_privdev N: give jheartbeat node N its own /dev (idempotent until the next
# power cycle), so that a test can bind the node's /dev/log without touching
# the host's. In the node's mount namespace only (the holder's, propagation
# private): a tmpfs is mounted on <node>/privdev, the real /dev rbind-mounted
# on its .host, a symlink made for every entry of /dev (to /dev/.host/NAME;
# /dev's own symlinks, e.g. fd -> /proc/self/fd, copied), and the tmpfs moved
# onto /dev. Opening /dev/null, /dev/urandom or /dev/pts/N reaches the real
# devices; a new file such as /dev/log lands in the tmpfs and dies with the
# holder. Nothing of /dev stays reachable under the run dir.
cmd_privdev() {
    local n d
    n=$(node_num "${1:-}")
    require_up
    is_real "$n" && die "node$n runs the real heartbeat: privdev is for jheartbeat nodes"
    d=$(node_dir "$n")
    node_enter "$n" /
    if "${NODE_ENTER[@]}" test -d /dev/.host; then
        return 0
    fi
    mkdir -p "$d/privdev"
    # shellcheck disable=SC2016  # expanded by the inner sh
    "${NODE_ENTER[@]}" sh -c 'set -e
        mount -t tmpfs -o mode=755,size=1m lab-dev "$1"
        mkdir "$1/.host"
        mount --rbind /dev "$1/.host"
        for e in /dev/*; do
            if [ -L "$e" ]; then cp -P "$e" "$1/"; else ln -s "/dev/.host/${e##*/}" "$1/${e##*/}"; fi
        done
        mount --move "$1" /dev' privdev "$d/privdev"
    log "node$n: private /dev (a tmpfs; the real devices under /dev/.host, inside node$n only)"
}

# cmd_syslogd N start|stop: a test syslog receiver on node N's own /dev/log
# (start implies privdev): socat bound on the unix datagram socket /dev/log
# (mode 666, an old socket file replaced) appends every datagram received to
# <node>/syslog.out as it came (records are not newline-terminated: each
# starts with <PRI>); pid in <node>/syslogd.pid. stop kills it: the socket
# file stays, so senders are refused, as after a syslog daemon crash.
cmd_syslogd() {
    local n d pid i
    n=$(node_num "${1:-}")
    d=$(node_dir "$n")
    case ${2:-} in
        start)
            cmd_privdev "node$n"
            if pid=$(pidfile_pid "$d/syslogd.pid" "$(node_ns "$n")"); then
                log "node$n: syslog receiver already running (pid $pid)"
                return 0
            fi
            node_enter "$n" /
            rm -f "$d/syslogd.pid"
            # shellcheck disable=SC2016  # expanded by the inner sh
            (exec setsid "${NODE_ENTER[@]}" sh -c 'echo $$ >"$1"; exec socat -u \
                UNIX-RECV:/dev/log,unlink-early,mode=666 "OPEN:$2,creat,append"' syslogd "$d/syslogd.pid" \
                "$d/syslog.out" </dev/null >>"$d/syslogd.log" 2>&1) &
            for ((i = 0; i < 100; i++)); do
                if pidfile_pid "$d/syslogd.pid" "$(node_ns "$n")" >/dev/null \
                    && "${NODE_ENTER[@]}" test -S /dev/log; then
                    log "node$n: syslog receiver on /dev/log -> $d/syslog.out"
                    return 0
                fi
                sleep 0.05
            done
            die "node$n: syslog receiver did not bind /dev/log (see $d/syslogd.log)"
            ;;
        stop)
            if pid=$(pidfile_pid "$d/syslogd.pid" "$(node_ns "$n")"); then
                kill -KILL "$pid"
                for ((i = 0; i < 100; i++)); do
                    alive "$pid" || break
                    sleep 0.05
                done
                log "node$n: syslog receiver stopped (/dev/log refuses now)"
            fi
            rm -f "$d/syslogd.pid"
            ;;
        *) die "usage: syslogd NODE start|stop" ;;
    esac
}

# cmd_srvmount N umount|mount: take node N's data partition off /srv/web (the
# empty directory below shows) or put it back
cmd_srvmount() {
    local n d
    n=$(node_num "${1:-}")
    [[ -r $RUN/sync ]] || die "lab '$LAB_ID' has no data partition (up with LAB_SYNC=web)"
    d=$(node_dir "$n")
    node_enter "$n" /
    if [[ $2 == umount ]]; then
        # a replication run may be reading it right now (umount: target is busy, exit 32): as an admin
        # would, try again until the run is over (a run of the lab's small data set takes well under 60 s)
        local i
        for ((i = 0; i < 300; i++)); do
            "${NODE_ENTER[@]}" umount /srv/web 2>/dev/null && break
            "${NODE_ENTER[@]}" mountpoint -q /srv/web || break
            sleep 0.2
        done
        "${NODE_ENTER[@]}" mountpoint -q /srv/web && die "node$n: /srv/web stays busy; not unmounted"
        log "node$n: /srv/web unmounted"
    elif "${NODE_ENTER[@]}" mountpoint -q /srv/web; then
        log "node$n: /srv/web already mounted"
    else
        "${NODE_ENTER[@]}" mount --bind "$d/disk-web" /srv/web
        log "node$n: /srv/web mounted"
    fi
}

# ---------------------------------------------------------------- power

# node_init: the LAB_NODE_INIT script recorded at up ("" if none). The holder of a jheartbeat node
# runs it as root inside the node's fresh mount namespace, with the node's number and its run dir,
# before the node counts as powered on (e.g. lab/townhall/node-init.sh: per-node /etc and /var);
# its failure fails the power-on.
node_init() { cat "$RUN/node-init" 2>/dev/null || true; }

start_holder() {
    local n=$1 ns pidf i hp d
    ns=$(node_ns "$n")
    d=$(node_dir "$n")
    pidf=$d/holder.pid
    rm -f "$pidf"
    # The holder is the node's "machine": netns + its own UTS namespace with
    # the host name set, kept alive by sleep. ip netns exec also gives it a
    # mount namespace with /sys showing the node's interfaces.
    if [[ -d $d/varlib ]]; then
        # (a machine made with Heartbeat installed, LAB_NODEn=heartbeat: it keeps Heartbeat's paths
        # after `swap NODE jheartbeat`, as a machine keeps /etc/ha.d when jheartbeat is installed)
        # Real Heartbeat reads fixed paths: the holder makes a private mount
        # namespace with the node's own /etc/ha.d, /var/lib/heartbeat and a
        # fresh /run (tmpfs: /run/heartbeat, /run/lock = /var/lock), so every
        # later nsenter -m (start, exec, clstatus) sees the node's files.
        # It also has the node's own /srv and /var/lib/jheartbeat, for jheartbeat after a swap.
        # The pid file is written last: it means "mounts are in place".
        mkdir -p "$d/srv" "$d/varlib-jhb" /srv /var/lib/jheartbeat
        # shellcheck disable=SC2016  # expanded by the inner sh
        setsid ip netns exec "$ns" unshare --uts --mount --propagation private \
            sh -c 'set -e
                hostname "$2"
                mount --bind "$3/ha.d" /etc/ha.d
                mount --bind "$3/varlib" /var/lib/heartbeat
                mount --bind "$3/srv" /srv
                mount --bind "$3/varlib-jhb" /var/lib/jheartbeat
                mount -t tmpfs -o mode=755 lab-run /run
                mkdir -p /run/heartbeat /run/lock /run/resource-agents
                chmod 1777 /run/lock
                echo $$ >"$1"
                exec sleep infinity' holder "$pidf" "node$n" "$d" \
            </dev/null >>"$d/holder.out" 2>&1 &
    else
        # A jheartbeat node gets a private mount namespace too, with its own
        # /srv and /var/lib/jheartbeat (<node>/srv, <node>/varlib-jhb: the
        # node's "disk", kept across power cycles), like two real machines.
        # The host's /srv and /var/lib/jheartbeat are only mount points here.
        mkdir -p "$d/srv" "$d/varlib-jhb" /srv /var/lib/jheartbeat
        # shellcheck disable=SC2016  # expanded by the inner sh
        setsid ip netns exec "$ns" unshare --uts --mount --propagation private \
            sh -c 'set -e
                hostname "$2"
                mount --bind "$3/srv" /srv
                mount --bind "$3/varlib-jhb" /var/lib/jheartbeat
                if [ -d "$3/disk-web" ]; then
                    mkdir -p /srv/web
                    mount --bind "$3/disk-web" /srv/web
                fi
                if [ "$4" = 1 ]; then
                    mount -t tmpfs -o mode=755 lab-run /run
                    mkdir -p /run/sshd /run/lock /run/resource-agents
                    chmod 1777 /run/lock
                fi
                if [ -n "$5" ]; then
                    "$5" "${2#node}" "$3"
                fi
                echo $$ >"$1"
                exec sleep infinity' holder "$pidf" "node$n" "$d" "$LAB_PRIVATE_RUN" "$(node_init)" \
            </dev/null >>"$d/holder.out" 2>&1 &
    fi
    for ((i = 0; i < 400; i++)); do
        if hp=$(holder_pid "$n") && [[ $(nsenter -t "$hp" -u hostname 2>/dev/null) == "node$n" ]]; then
            return 0
        fi
        sleep 0.05
    done
    die "holder for node$n did not come up (see $d/holder.out)"
}

# admin_up NS IF: interface IF in NS is administratively up
admin_up() {
    [[ $(ip -n "$1" -o link show dev "$2" 2>/dev/null) =~ \<([A-Z_-]+,)*UP[,\>] ]]
}

# settle N: wait (max 2 s) until node N's interfaces whose far end is up are
# operationally UP (the kernel activates a link up to ~1 s after carrier).
settle() {
    local n=$1 ns i ifc ok
    ns=$(node_ns "$n")
    for ((i = 0; i < 400; i++)); do
        ok=1
        for ifc in eth0 eth1; do
            admin_up "$ns" "$ifc" || continue
            if [[ $ifc == eth0 ]]; then
                admin_up "$NS_SW" "p$n" || continue
            else
                admin_up "$(node_ns "$(peer_of "$n")")" eth1 || continue
            fi
            [[ $(ip -n "$ns" -o link show dev "$ifc") == *" state UP "* ]] || ok=0
        done
        ((ok)) && return 0
        sleep 0.05
    done
    log "node$n: links not operational after 2 s"
}

settle_all() {
    local n
    for n in 1 2; do
        if holder_pid "$n" >/dev/null; then settle "$n"; fi
    done
}

cmd_poweron() {
    local n ns d
    n=$(node_num "${1:-}")
    require_up
    ns=$(node_ns "$n")
    d=$(node_dir "$n")
    holder_pid "$n" >/dev/null || start_holder "$n"
    ip -n "$ns" link set lo up
    ip -n "$ns" addr replace "198.18.0.$n/24" dev eth0
    ip -n "$ns" addr replace "198.18.1.$n/24" dev eth1
    ip -n "$ns" link set eth0 up
    if [[ -e $d/cut.eth1 ]]; then
        log "node$n eth1 stays down (cable cut; linkup node$n eth1 restores)"
    else
        ip -n "$ns" link set eth1 up
    fi
    settle_all
    is_real "$n" || [[ ! -e $d/sshd/sshd_config ]] || sshd_start "$n"
    log "node$n powered on (holder pid $(holder_pid "$n")); daemon not started"
}

cmd_poweroff() {
    local n ns d ifc
    n=$(node_num "${1:-}")
    require_up
    ns=$(node_ns "$n")
    d=$(node_dir "$n")
    kill_ns "$ns" || die "could not kill all processes of node$n"
    for ifc in eth0 eth1 lo; do
        ip -n "$ns" addr flush dev "$ifc"
        ip -n "$ns" link set "$ifc" down
    done
    ip -n "$ns" neigh flush all 2>/dev/null || true
    rm -f "$d/holder.pid" "$d/daemon.pid" "$d/sshd.pid"
    log "node$n powered off"
}

# ---------------------------------------------------------------- ssh

# Every jheartbeat node runs an sshd inside itself (net + UTS + mount ns of
# its holder), so that node-to-node ssh/rsync works as between two machines:
# listening on 198.18.0.N:22 and 198.18.1.N:22, root only, key only. The
# client key pair <run>/ssh/id_ed25519 (one per `up`) is authorized on both
# nodes; <run>/ssh/known_hosts holds both host keys (per node, made by up).
SSH_DIR=$RUN/ssh
SSHD=/usr/sbin/sshd

ssh_cmd_line() {
    echo "ssh -F none -i $SSH_DIR/id_ed25519 -o IdentitiesOnly=yes -o UserKnownHostsFile=$SSH_DIR/known_hosts" \
        "-o StrictHostKeyChecking=accept-new -o BatchMode=yes -o ConnectTimeout=3 -l root"
}

# ssh_keys: client key pair, per jheartbeat node a host key and sshd_config,
# known_hosts with both nodes' keys under their addresses and names
ssh_keys() {
    local n d k
    mkdir -p "$SSH_DIR"
    chmod 700 "$SSH_DIR"
    ssh-keygen -q -t ed25519 -N '' -C "lab-$LAB_ID" -f "$SSH_DIR/id_ed25519" </dev/null >/dev/null
    install -m 600 "$SSH_DIR/id_ed25519.pub" "$SSH_DIR/authorized_keys"
    : >"$SSH_DIR/known_hosts"
    for n in 1 2; do
        is_real "$n" && continue
        d=$(node_dir "$n")
        mkdir -p "$d/sshd"
        chmod 700 "$d/sshd"
        k=$d/sshd/ssh_host_ed25519_key
        ssh-keygen -q -t ed25519 -N '' -C "node$n" -f "$k" </dev/null >/dev/null
        echo "198.18.0.$n,198.18.1.$n,node$n $(cut -d' ' -f1,2 "$k.pub")" >>"$SSH_DIR/known_hosts"
        cat >"$d/sshd/sshd_config" <<EOF
# generated by lab/lab.sh for lab '$LAB_ID', node$n
Port 22
ListenAddress 198.18.0.$n
ListenAddress 198.18.1.$n
HostKey $k
PidFile $d/sshd.pid
AuthorizedKeysFile $SSH_DIR/authorized_keys
AllowUsers root
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
# the run dir may sit below group-writable directories (a work tree)
StrictModes no
PrintMotd no
UseDNS no
Subsystem sftp internal-sftp
# a private, empty HOME: bash run by sshd reads ~/.bashrc, and root's (pyenv's shims here) can
# wait 60 s on a lock that a powered-off node's session left behind
SetEnv HOME=$d/sshd-home
EOF
        mkdir -p "$d/sshd-home"
    done
}

# (the listener rewrites its title to "sshd: /usr/sbin/sshd -D ... [listener] ...")
sshd_pid() { pid_of_file "$(node_dir "$1")/sshd.pid" "*$SSHD -D -e -f $(node_dir "$1")/sshd/sshd_config*"; }

# sshd_listening N: sshd listens on both of node N's addresses, port 22
sshd_listening() {
    local ls
    ls=$(ip netns exec "$(node_ns "$1")" ss -Hltn 'sport = :22' 2>/dev/null) || return 1
    [[ $ls == *"198.18.0.$1:22 "* && $ls == *"198.18.1.$1:22 "* ]]
}

# sshd_start N: start node N's sshd inside the node (idempotent), wait until
# it listens on both addresses (max 5 s); dies with its log if it does not
sshd_start() {
    local n=$1 d pid i
    d=$(node_dir "$n")
    [[ -r $d/sshd/sshd_config ]] || return 0 # a lab made before sshd existed
    if pid=$(sshd_pid "$n") && in_ns "$pid" "$(node_ns "$n")"; then
        return 0
    fi
    node_enter "$n" "/"
    # privilege separation directory (as the openssh-server package makes it)
    mkdir -p /run/sshd
    chmod 755 /run/sshd
    rm -f "$d/sshd.pid"
    echo "=== $(date '+%F %T.%3N') $PROG sshd start" >>"$d/sshd.log"
    # -D: no fork (the pid file gets the pid of this sh, which execs sshd;
    # sshd writes the same pid there itself); -e: log to stderr = sshd.log
    # shellcheck disable=SC2016  # expanded by the inner sh
    (exec setsid "${NODE_ENTER[@]}" sh -c 'echo $$ >"$1"; shift; exec "$@"' sshd "$d/sshd.pid" \
        "$SSHD" -D -e -f "$d/sshd/sshd_config" </dev/null >>"$d/sshd.log" 2>&1) &
    for ((i = 0; i < 400; i++)); do
        sshd_listening "$n" && return 0
        if ((i > 4)) && ! sshd_pid "$n" >/dev/null; then
            break
        fi
        sleep 0.05
    done
    tail -n 10 "$d/sshd.log" >&2
    die "node$n: sshd did not come up listening on 198.18.0.$n:22 and 198.18.1.$n:22 (see $d/sshd.log)"
}

cmd_ssh_cmd() {
    [[ -r $SSH_DIR/id_ed25519 ]] || die "lab '$LAB_ID' has no ssh key ($SSH_DIR/id_ed25519): run up first"
    ssh_cmd_line
}

# ---------------------------------------------------------------- up/down

cmd_up() {
    local ns n
    for ns in "${ALL_NS[@]}"; do
        ! ns_exists "$ns" || die "namespace $ns exists: lab '$LAB_ID' is (partly) up; run down first"
    done
    ! serial_pid >/dev/null || die "the serial cable of lab '$LAB_ID' still runs; run down first"
    media_lines 1 >/dev/null
    AUTH_KEY=x authkeys_text >/dev/null
    haresources_text >/dev/null
    [[ -z ${LAB_HARESOURCES:-} || $LAB_GROUPS == single ]] ||
        log "LAB_HARESOURCES is set: it is used as is, LAB_GROUPS=$LAB_GROUPS ignored"
    for n in 1 2; do
        [[ $(kind_from_env "$n") == heartbeat ]] || continue
        [[ -x $REALHB && -d /etc/ha.d && -d /var/lib/heartbeat ]] ||
            die "LAB_NODE$n=heartbeat needs the Debian heartbeat package ($REALHB)"
        # the real node's private mounts would hide a run dir below them
        case $RUN/ in
            /run/* | /var/run/* | /etc/ha.d/* | /var/lib/heartbeat/*)
                die "LAB_NODE$n=heartbeat: run dir $RUN is hidden inside the node (pick another LAB_RUN)" ;;
        esac
    done
    for n in 1 2; do
        [[ $(kind_from_env "$n") == jheartbeat ]] || continue
        case $RUN/ in
            /srv/* | /var/lib/jheartbeat/*)
                die "run dir $RUN is hidden inside a jheartbeat node (its own /srv, /var/lib/jheartbeat); pick another LAB_RUN" ;;
        esac
        [[ -x $SSHD ]] || die "$SSHD not found: install openssh-server (scripts/setup.sh does)"
        command -v ssh-keygen >/dev/null || die "ssh-keygen not found: install openssh-client (scripts/setup.sh does)"
    done
    [[ $RUN != *[[:space:]]* ]] || die "run dir '$RUN' contains white space (the ssh command line could not carry it)"
    if [[ -d $RUN ]]; then
        if [[ -e $RUN/$MARKER || -z $(ls -A "$RUN") ]]; then
            rm -rf -- "$RUN"
        else
            die "$RUN exists and is not a lab run dir (no $MARKER); refusing to wipe it"
        fi
    fi
    mkdir -p "$RUN"
    touch "$RUN/$MARKER"
    if [[ -n ${LAB_NODE_INIT:-} ]]; then
        [[ -x $LAB_NODE_INIT && $LAB_NODE_INIT == /* ]] || die "LAB_NODE_INIT must be an executable absolute path (got '$LAB_NODE_INIT')"
        echo "$LAB_NODE_INIT" >"$RUN/node-init"
    fi
    UP_DONE=0
    trap '[[ $UP_DONE == 1 ]] || { log "up failed; tearing down"; cmd_down >/dev/null 2>&1 || true; }' EXIT

    for ns in "${ALL_NS[@]}"; do
        ip netns add "$ns"
        # IPv4 only: no IPv6 link-local chatter from lab interfaces.
        ip netns exec "$ns" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 \
            net.ipv6.conf.default.disable_ipv6=1 >/dev/null
        ip -n "$ns" link set lo up
    done

    # switch: a bridge inside its own namespace
    ip -n "$NS_SW" link add br0 type bridge stp_state 0 forward_delay 0
    ip -n "$NS_SW" link set br0 up
    # the switch answers on the LAN as the "router", a ping node for both nodes
    ip -n "$NS_SW" addr add "$ROUTER_IP/24" dev br0
    # LAN cables: veth ends created directly in their target namespaces
    for n in 1 2; do
        ip -n "$NS_SW" link add "p$n" type veth peer name eth0 netns "$(node_ns "$n")"
        ip -n "$(node_ns "$n")" link set eth0 address "02:00:c6:12:00:0$n"
    done
    ip -n "$NS_SW" link add pcl type veth peer name eth0 netns "$NS_CL"
    ip -n "$NS_CL" link set eth0 address 02:00:c6:12:00:0a
    for ns in p1 p2 pcl; do
        ip -n "$NS_SW" link set "$ns" master br0 up
    done
    # crossover cable node1 eth1 <-> node2 eth1
    ip -n "$NS_N1" link add eth1 type veth peer name eth1 netns "$NS_N2"
    ip -n "$NS_N1" link set eth1 address 02:00:c6:12:01:01
    ip -n "$NS_N2" link set eth1 address 02:00:c6:12:01:02

    # client
    ip -n "$NS_CL" addr add "$CLIENT_IP/24" dev eth0
    ip -n "$NS_CL" link set eth0 up
    # Let gratuitous ARP always update the client's cache (default locktime
    # of 1 s would ignore a GARP arriving right after another update).
    ip netns exec "$NS_CL" sysctl -q -w net.ipv4.neigh.eth0.locktime=0 >/dev/null

    # config
    AUTH_KEY=$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n')
    for n in 1 2; do
        write_node_config "$n"
    done
    ssh_keys
    serial_plug
    if [[ $LAB_STONITH == apcsmart ]]; then
        echo apcsmart >"$RUN/stonith"
        for n in 1 2; do
            ups_cable_plug "$n"
            ups_start "$n"
        done
    fi
    for n in 1 2; do
        cmd_poweron "node$n"
    done
    UP_DONE=1
    log "up: nodes powered on, daemons not started; run dir $RUN"
}

cmd_down() {
    local ns fail=0 n
    for n in 1 2; do
        ups_stop "$n" || fail=1
        ups_cable_unplug "$n" || fail=1
    done
    serial_unplug || fail=1
    for ns in "${ALL_NS[@]}"; do
        ns_exists "$ns" || continue
        kill_ns "$ns" || fail=1
    done
    for ns in "${ALL_NS[@]}"; do
        ns_exists "$ns" || continue
        if [[ -n $(ns_pids "$ns") ]]; then
            log "keeping $ns: processes still inside"
            fail=1
            continue
        fi
        ip netns del "$ns" || fail=1
    done
    if [[ -d $RUN ]]; then
        rm -f "$RUN"/node?/holder.pid "$RUN"/node?/daemon.pid "$RUN"/node?/sshd.pid
    fi
    ((fail == 0)) || die "down incomplete; run it again"
    log "down (run dir kept: $RUN)"
}

cmd_clean() {
    cmd_down
    if [[ -d $RUN && -e $RUN/$MARKER ]]; then
        rm -rf -- "$RUN"
        log "removed $RUN"
    fi
}

# ---------------------------------------------------------------- daemon

cmd_start() {
    local n d pid i
    n=$(node_num "${1:-}")
    require_up
    d=$(node_dir "$n")
    node_enter "$n" "$d"
    if pid=$(daemon_pid "$n"); then
        log "node$n: daemon already running (pid $pid)"
        return 0
    fi
    if is_real "$n"; then
        # real Heartbeat in the foreground; its /etc/ha.d is <node>/ha.d
        # (bind mount in the holder's mount namespace)
        [[ -x $REALHB ]] || die "real heartbeat not found: $REALHB"
        HB=("$REALHB" -f)
    else
        hb_cmd
        HB+=(daemon --config-dir "$d/ha.d" --state-dir "$d/state" --node-name "node$n")
    fi
    rm -f "$d/daemon.pid"
    is_real "$n" || rm -f "$d/state/control.sock" # a power-off leaves the old one behind
    echo "=== $(date '+%F %T.%3N') $PROG start: ${HB[*]}" >>"$d/daemon.out"
    # setsid: the daemon leads its own session/process group; the inner sh
    # records its pid, then execs the daemon (same pid).
    # shellcheck disable=SC2016  # expanded by the inner sh
    (LABWEB_STATE_DIR=$d/state HB_STATE_DIR=$d/state exec setsid "${NODE_ENTER[@]}" \
        sh -c 'echo $$ >"$1"; shift; exec "$@"' daemon "$d/daemon.pid" "${HB[@]}" \
        </dev/null >>"$d/daemon.out" 2>&1) &
    for ((i = 0; i < 400; i++)); do
        [[ -s $d/daemon.pid ]] && break
        sleep 0.05
    done
    sleep 0.3
    if ! pid=$(daemon_pid "$n"); then
        tail -n 10 "$d/daemon.out" >&2
        die "node$n: daemon exited at once (see $d/daemon.out)"
    fi
    if ! is_real "$n"; then
        # jheartbeat checks its config, media and STONITH device before it opens its control
        # socket: wait for the socket (up to LAB_START_TIMEOUT s) or for the daemon to exit
        for ((i = 0; i < ${LAB_START_TIMEOUT:-20} * 20; i++)); do
            [[ -S $d/state/control.sock ]] && break
            if ! daemon_pid "$n" >/dev/null; then
                tail -n 10 "$d/daemon.out" >&2
                die "node$n: daemon refused to start (see $d/daemon.out)"
            fi
            sleep 0.05
        done
        [[ -S $d/state/control.sock ]] || log "node$n: daemon runs but its control socket is not there yet"
    fi
    log "node$n: daemon started (pid $pid), output in $d/daemon.out"
}

cmd_stop() {
    local n d pid i
    n=$(node_num "${1:-}")
    d=$(node_dir "$n")
    if ! ns_exists "$(node_ns "$n")" || ! pid=$(daemon_pid "$n"); then
        rm -f "$d/daemon.pid"
        log "node$n: daemon not running"
        return 0
    fi
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < LAB_STOP_TIMEOUT * 10; i++)); do
        alive "$pid" || break
        sleep 0.1
    done
    if alive "$pid"; then
        log "node$n: daemon still alive after ${LAB_STOP_TIMEOUT}s; SIGKILL (process group)"
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
        for ((i = 0; i < 50; i++)); do
            alive "$pid" || break
            sleep 0.1
        done
    fi
    if is_real "$n"; then
        # Real Heartbeat forks children (FIFO reader, a reader and a writer
        # per medium, resource scripts). Whatever is left of the session we
        # started (sid = master pid) inside the node's netns goes too.
        # (labweb's server has its own session: resources are released by
        # heartbeat's SIGTERM shutdown, or stay up after a SIGKILL, as on a
        # real machine.)
        local left
        for ((i = 0; i < 50; i++)); do
            left=$(session_pids "$pid" "$(node_ns "$n")")
            [[ -z $left ]] && break
            ((i > 0)) || log "node$n: killing leftover heartbeat processes: ${left//$'\n'/ }"
            # shellcheck disable=SC2086  # word splitting of the pid list is intended
            kill -KILL $left 2>/dev/null || true
            sleep 0.1
        done
    fi
    rm -f "$d/daemon.pid"
    log "node$n: daemon stopped"
}

# clstatus_in N ARGS...: run cl_status ARGS inside real node N
clstatus_in() {
    local n=$1
    shift
    node_enter "$n"
    "${NODE_ENTER[@]}" cl_status "$@"
}

# real_status N: a cl_status summary of real node N
real_status() {
    local n=$1 out node link st rc=0
    out=$(clstatus_in "$n" hbstatus 2>&1) || rc=$?
    echo "node$n (real heartbeat): $out"
    ((rc == 0)) || return "$rc"
    for node in $(clstatus_in "$n" listnodes 2>/dev/null); do
        st=$(clstatus_in "$n" nodestatus "$node" 2>/dev/null) || true
        printf 'node %s: %s\n' "$node" "$st"
        [[ $node == "node$n" ]] && continue
        while read -r link; do
            [[ -n $link ]] || continue
            printf '  link %s: %s\n' "$link" "$(clstatus_in "$n" hblinkstatus "$node" "$link" 2>/dev/null || true)"
        done < <(clstatus_in "$n" listhblinks "$node" 2>/dev/null || true)
    done
    echo "resources: $(clstatus_in "$n" rscstatus 2>/dev/null || true)"
}

cmd_status() {
    local n d ns
    n=$(node_num "${1:-}")
    require_up
    d=$(node_dir "$n")
    ns=$(node_ns "$n")
    if is_real "$n"; then
        holder_pid "$n" >/dev/null || {
            echo "node$n (real heartbeat): powered off"
            exit 1
        }
        real_status "$n"
        return
    fi
    hb_cmd
    HB+=(status --state-dir "$d/state")
    if holder_pid "$n" >/dev/null; then
        node_enter "$n"
        exec "${NODE_ENTER[@]}" "${HB[@]}"
    fi
    # powered off: still look at its (persistent) state dir, inside its netns
    # shellcheck disable=SC2016  # expanded by the inner sh
    exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$1"; shift; exec "$@"' sh "node$n" "${HB[@]}"
}

# cmd_hb NODE [ARGS..]: hb ARGS inside jheartbeat NODE (netns+UTS+mount, as its daemon runs), with
# the node's --config-dir, --state-dir and --node-name added where the command takes them (its
# --help says which; an option the caller gave wins). Exit code: hb's. A powered-off node: inside
# its netns only, like status, so that its (persistent) state dir can still be read.
cmd_hb() {
    local n d a o help opt given
    local -a add=()
    n=$(node_num "${1:-}")
    shift
    require_up
    is_real "$n" && die "node$n runs real heartbeat, not jheartbeat (use: $PROG status|clstatus|hbcmd node$n)"
    d=$(node_dir "$n")
    hb_cmd
    given=" $* "
    if [[ $given != *" --help "* && $given != *" -h "* && $given != *" --version "* ]] && (($# > 0)); then
        help=$("${HB[@]}" "$@" --help 2>/dev/null) || help=''
        for o in "config-dir=$d/ha.d" "state-dir=$d/state" "node-name=node$n"; do
            opt=--${o%%=*}
            grep -qE -- "^ *(-[A-Za-z], )?$opt[= ]" <<<"$help" || continue
            for a; do [[ $a == "$opt" || $a == "$opt="* ]] && continue 2; done
            add+=("$opt" "${o#*=}")
        done
    fi
    if holder_pid "$n" >/dev/null; then
        node_enter "$n"
        exec "${NODE_ENTER[@]}" "${HB[@]}" "$@" "${add[@]}"
    fi
    # shellcheck disable=SC2016  # expanded by the inner sh
    exec ip netns exec "$(node_ns "$n")" unshare --uts sh -c 'hostname "$1"; shift; exec "$@"' sh "node$n" \
        "${HB[@]}" "$@" "${add[@]}"
}

cmd_clstatus() {
    local n
    n=$(node_num "${1:-}")
    shift
    require_up
    is_real "$n" || die "node$n runs jheartbeat, not real heartbeat (use status)"
    node_enter "$n"
    exec "${NODE_ENTER[@]}" cl_status "$@"
}

# cmd_swap NODE jheartbeat|heartbeat: replace the software of a node made with LAB_NODEn=heartbeat, as
# installing the other package on the machine would: its /etc/ha.d (<node>/ha.d), /var/lib/heartbeat and
# the state dir stay as they are; the next `start` runs the other daemon on the same files. The daemon must
# be stopped. The rolling migration (docs/migration.md) swaps each node in turn.
cmd_swap() {
    local n k d pid
    n=$(node_num "${1:-}")
    case ${2:-} in
        jheartbeat | jhb) k=jheartbeat ;;
        heartbeat | real) k=heartbeat ;;
        *) die "usage: swap NODE jheartbeat|heartbeat" ;;
    esac
    require_up
    d=$(node_dir "$n")
    [[ -d $d/varlib ]] || die "node$n was made as a jheartbeat node: only a node made with LAB_NODE$n=heartbeat at up has Heartbeat's /etc/ha.d and /var/lib/heartbeat to swap on"
    if pid=$(daemon_pid "$n"); then
        die "node$n: its daemon runs (pid $pid): stop it first ($PROG stop node$n)"
    fi
    echo "$k" >"$d/kind"
    log "node$n now runs $k on the same files ($d/ha.d)"
}

cmd_hbcmd() {
    local n c
    n=$(node_num "${1:-}")
    c=${2:-}
    shift $(($# >= 2 ? 2 : $#))
    case $c in
        hb_standby | hb_takeover) ;;
        *) die "usage: hbcmd NODE hb_standby|hb_takeover [all|foreign|local|failback]" ;;
    esac
    require_up
    is_real "$n" || die "node$n runs jheartbeat, not real heartbeat"
    node_enter "$n"
    exec "${NODE_ENTER[@]}" "$REALHB_SHARE/$c" "$@"
}

# ---------------------------------------------------------------- links

cmd_link() {
    local updown=$1 n ns ifc d
    n=$(node_num "${2:-}")
    ifc=${3:-}
    require_up
    ns=$(node_ns "$n")
    d=$(node_dir "$n")
    case $ifc in
        eth0)
            # pull the cable at the switch: node's eth0 stays UP, NO-CARRIER
            ip -n "$NS_SW" link set "p$n" "$updown"
            ;;
        eth1)
            # crossover has no switch: take node's end down; peer sees NO-CARRIER.
            # Remembered across poweroff/poweron until linkup.
            if [[ $updown == down ]]; then
                touch "$d/cut.eth1"
                ip -n "$ns" link set eth1 down
            else
                rm -f "$d/cut.eth1"
                if holder_pid "$n" >/dev/null; then
                    ip -n "$ns" link set eth1 up
                fi
            fi
            ;;
        *) die "interface must be eth0 or eth1 (got '$ifc')" ;;
    esac
    [[ $updown == down ]] || settle_all
    log "node$n $ifc link $updown"
}

# ---------------------------------------------------------------- serial cable

# The null-modem cable: one socat joining two PTYs whose stable paths are
# <run>/node1/ttyS0 and <run>/node2/ttyS0 (symlinks to /dev/pts/N, made and
# removed by socat). It runs outside the namespaces (a PTY is no network),
# in its own session; pid in <run>/serial.pid, log <run>/serial.log.
# `rawer` (= cfmakeraw: no echo, no ICANON/ISIG/IEXTEN, no CR/NL mapping,
# no IXON, no OPOST, CS8) gives a clean 8-bit line both ways until an
# endpoint sets its own termios (real Heartbeat does: ISTRIP, IGNCR, ...).
serial_plug() {
    local pid i t
    if pid=$(serial_pid); then
        log "serial cable already plugged (socat pid $pid)"
        return 0
    fi
    for t in "$(node_tty 1)" "$(node_tty 2)"; do
        mkdir -p "$(dirname "$t")"
        [[ -L $t || ! -e $t ]] || die "$t exists and is not a symlink; refusing to replace it"
        rm -f "$t" # stale link of a SIGKILLed socat
    done
    rm -f "$SERIAL_PIDFILE"
    echo "=== $(date '+%F %T.%3N') $PROG serialplug" >>"$RUN/serial.log"
    # shellcheck disable=SC2016  # expanded by the inner sh
    setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' serial "$SERIAL_PIDFILE" \
        socat -d -d "PTY,link=$(node_tty 1),rawer" "PTY,link=$(node_tty 2),rawer" \
        </dev/null >>"$RUN/serial.log" 2>&1 &
    for ((i = 0; i < 400; i++)); do
        if pid=$(serial_pid) && [[ -L $(node_tty 1) && -L $(node_tty 2) ]]; then
            log "serial cable plugged (socat pid $pid): $(node_tty 1) -> $(readlink "$(node_tty 1)"), $(node_tty 2) -> $(readlink "$(node_tty 2)")"
            return 0
        fi
        sleep 0.05
    done
    tail -n 5 "$RUN/serial.log" >&2
    serial_unplug || true
    die "serial cable: socat did not come up (see $RUN/serial.log)"
}

# serial_unplug: kill the cable's socat by pid (TERM: socat removes its
# links; KILL after 1 s), remove leftover links. Idempotent.
serial_unplug() {
    local pid i t
    if pid=$(serial_pid); then
        kill -TERM "$pid" 2>/dev/null || true
        kill -CONT "$pid" 2>/dev/null || true # a cut (stopped) cable
        for ((i = 0; i < 20; i++)); do
            alive "$pid" || break
            sleep 0.05
        done
        if alive "$pid"; then
            kill -KILL "$pid" 2>/dev/null || true
            for ((i = 0; i < 20; i++)); do
                alive "$pid" || break
                sleep 0.05
            done
        fi
        if alive "$pid"; then
            log "serial cable socat $pid survives SIGKILL"
            return 1
        fi
    fi
    rm -f "$SERIAL_PIDFILE"
    for t in "$(node_tty 1)" "$(node_tty 2)"; do
        [[ ! -L $t ]] || rm -f "$t"
    done
    return 0
}

# ---------------------------------------------------------------- UPS (STONITH)
# The UPS that powers node N is a simulated APC Smart-UPS
# (org.jheartbeat.lab.sim.ApcSmartSimulator from $LAB_SIM_JAR, with $HB_JAR
# on the class path for heartbeat-core, jSerialComm and logging) on
# "$RUN/upsN.tty"; a socat PTY pair cables it to the PEER's
# "<peer dir>/ttyS1", from which the peer
# fences node N. Switching the outlet off runs "lab.sh poweroff nodeN", on
# runs "lab.sh poweron nodeN". Both run outside the namespaces, tracked by
# pid files ($RUN/upscableN.pid, $RUN/upsN.pid).
ups_tty() { echo "$RUN/ups$1.tty"; }
ups_host_tty() { echo "$(node_dir "$(peer_of "$1")")/ttyS1"; }

# pid_of_file FILE PATTERN: the live pid in FILE whose command line matches PATTERN
pid_of_file() {
    local pid
    [[ -r $1 ]] || return 1
    pid=$(cat "$1" 2>/dev/null) || return 1
    alive "$pid" || return 1
    [[ $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) == $2 ]] || return 1
    echo "$pid"
}

ups_cable_pid() { pid_of_file "$RUN/upscable$1.pid" "socat*link=$(ups_tty "$1"),*"; }
ups_pid() { pid_of_file "$RUN/ups$1.pid" "*ApcSmartSimulator*$(ups_tty "$1")*"; }

# kill_pid PID: TERM, then KILL after 2 s; fails if it survives
kill_pid() {
    local i
    kill -TERM "$1" 2>/dev/null || true
    kill -CONT "$1" 2>/dev/null || true
    for ((i = 0; i < 40; i++)); do
        alive "$1" || return 0
        sleep 0.05
    done
    kill -KILL "$1" 2>/dev/null || true
    for ((i = 0; i < 20; i++)); do
        alive "$1" || return 0
        sleep 0.05
    done
    log "process $1 survives SIGKILL"
    return 1
}

ups_cable_plug() {
    local n=$1 i t
    ! ups_cable_pid "$n" >/dev/null || return 0
    for t in "$(ups_tty "$n")" "$(ups_host_tty "$n")"; do
        [[ -L $t || ! -e $t ]] || die "$t exists and is not a symlink; refusing to replace it"
        rm -f "$t"
    done
    # shellcheck disable=SC2016  # expanded by the inner sh
    setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' upscable "$RUN/upscable$n.pid" \
        socat -d "PTY,link=$(ups_tty "$n"),rawer" "PTY,link=$(ups_host_tty "$n"),rawer" \
        </dev/null >>"$RUN/upscable$n.log" 2>&1 &
    for ((i = 0; i < 400; i++)); do
        if ups_cable_pid "$n" >/dev/null && [[ -L $(ups_tty "$n") && -L $(ups_host_tty "$n") ]]; then
            return 0
        fi
        sleep 0.05
    done
    die "UPS cable of node$n: socat did not come up (see $RUN/upscable$n.log)"
}

ups_cable_unplug() {
    local pid t
    if pid=$(ups_cable_pid "$1"); then
        kill_pid "$pid" || return 1
    fi
    rm -f "$RUN/upscable$1.pid"
    for t in "$(ups_tty "$1")" "$(ups_host_tty "$1")"; do
        [[ ! -L $t ]] || rm -f "$t"
    done
}

# ups_start N: the simulated UPS of node N (idempotent)
ups_start() {
    local n=$1 i
    [[ -r $RUN/stonith ]] || die "lab '$LAB_ID' has no UPS (up with LAB_STONITH=apcsmart)"
    ! ups_pid "$n" >/dev/null || return 0
    [[ -f $HB_JAR ]] || die "$HB_JAR not found (the UPS simulator runs with it on the class path)"
    [[ -f $LAB_SIM_JAR ]] || die "$LAB_SIM_JAR not found (the UPS simulator; build it: mvn -o -q -B package -DskipTests -pl lab -am)"
    # shellcheck disable=SC2016  # expanded by the inner sh
    LAB_ID=$LAB_ID LAB_RUN=$RUN setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' ups "$RUN/ups$n.pid" \
        java -Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$LAB_SIM_JAR:$HB_JAR" \
        org.jheartbeat.lab.sim.ApcSmartSimulator --tty "$(ups_tty "$n")" \
        --on-off-command "$LAB_DIR/lab.sh poweroff node$n" --on-on-command "$LAB_DIR/lab.sh poweron node$n" \
        --state-file "$RUN/ups$n.state" </dev/null >>"$RUN/ups$n.log" 2>&1 &
    for ((i = 0; i < 400; i++)); do
        ups_pid "$n" >/dev/null && return 0
        sleep 0.05
    done
    die "UPS of node$n did not start (see $RUN/ups$n.log)"
}

ups_stop() {
    local pid
    if pid=$(ups_pid "$1"); then
        kill_pid "$pid" || return 1
    fi
    rm -f "$RUN/ups$1.pid"
}

# upsstop NODE: unplug the UPS's serial cable (the simulator stops answering)
cmd_upsstop() {
    local n
    n=$(node_num "${1:?upsstop NODE}")
    ups_stop "$n"
    log "UPS of node$n stopped (unplugged)"
}

# upsstart NODE: plug it back
cmd_upsstart() {
    local n
    n=$(node_num "${1:?upsstart NODE}")
    ups_start "$n"
    log "UPS of node$n running (pid $(ups_pid "$n"))"
}

# freeze NODE / thaw NODE: SIGSTOP / SIGCONT every process of the node (a hung machine)
cmd_freeze() {
    local n p sig=${2:-STOP}
    n=$(node_num "${1:?freeze NODE}")
    for p in $(ns_pids "$(node_ns "$n")"); do
        kill "-$sig" "$p" 2>/dev/null || true
    done
    log "node$n: SIG$sig sent to every process"
}

# serial_cut_state PID: 0 if the cable's socat is stopped (cut by serialcut)
serial_is_cut() {
    local st
    st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    st=${st##*) }
    [[ ${st:0:1} == T ]]
}

# serialcut: pull the cable, the ports stay: SIGSTOP the socat. The PTYs and
# links remain, nothing crosses; writers block once the kernel buffers fill
# (as a UART with CRTSCTS and no cable), bytes written meanwhile arrive after
# serialplug (as a UART's queued output would). A real Heartbeat logs
# "Link peer:<tty> dead." and, later, "TTY write timeout", and recovers on
# serialplug.
# serialcut kill: remove the cable and both ports: kill the socat (TERM,
# then KILL), the PTYs and links vanish. Readers get EOF/EIO; a real
# Heartbeat then logs "EOF in ttygets" in a tight loop (megabytes per
# second) and never reopens the tty: stop it soon.
cmd_serialcut() {
    local pid i
    require_up
    case ${1:-} in
        kill)
            serial_unplug || die "could not unplug the serial cable"
            log "serial cable removed (socat killed; tty links gone)"
            return 0
            ;;
        "") ;;
        *) die "usage: serialcut [kill]" ;;
    esac
    if ! pid=$(serial_pid); then
        log "serial cable already removed (serialplug brings a new one)"
        return 0
    fi
    kill -STOP "$pid"
    for ((i = 0; i < 400; i++)); do
        serial_is_cut "$pid" && break
        sleep 0.05
    done
    serial_is_cut "$pid" || die "serial cable socat $pid did not stop"
    log "serial cable cut (socat $pid stopped; tty links stay)"
}

# serialplug: plug the cable back: SIGCONT a cut socat, or start a new one
# (same link paths, new /dev/pts numbers) if it was killed. Idempotent.
cmd_serialplug() {
    local pid
    require_up
    if pid=$(serial_pid) && serial_is_cut "$pid"; then
        kill -CONT "$pid"
        log "serial cable plugged back (socat $pid continued)"
        return 0
    fi
    serial_plug
}

# serialgarbage NODE BYTES: BYTES random bytes written into the PEER's end
# of the line (<run>/node<peer>/ttyS0), so socat carries them to NODE's end,
# where NODE's daemon reads them as line noise (interleaved with whatever the
# peer writes). The peer's daemon does not see them.
cmd_serialgarbage() {
    local n p bytes src
    n=$(node_num "${1:-}")
    bytes=${2:-}
    [[ $bytes =~ ^[0-9]+$ ]] || die "usage: serialgarbage NODE BYTES"
    require_up
    local pid
    pid=$(serial_pid) || die "serial cable is removed (serialplug)"
    ! serial_is_cut "$pid" || die "serial cable is cut (serialplug)"
    p=$(peer_of "$n")
    src=$(node_tty "$p")
    # (the shell opening the tty is a child, never a session leader, so the
    # line cannot become its controlling terminal)
    # shellcheck disable=SC2016  # expanded by the inner sh
    timeout 10 sh -c 'head -c "$1" /dev/urandom >"$2"' garbage "$bytes" "$src" ||
        die "writing $bytes bytes into $src failed or blocked (is anyone reading node$n's end?)"
    log "wrote $bytes random bytes into node$p's end ($src); node$n receives them on $(node_tty "$n")"
}

# ---------------------------------------------------------------- misc

cmd_exec() {
    local n
    n=$(node_num "${1:-}")
    shift
    require_up
    node_enter "$n"
    (($# > 0)) || set -- bash
    exec "${NODE_ENTER[@]}" "$@"
}

cmd_client() {
    require_up
    (($# > 0)) || set -- bash
    exec ip netns exec "$NS_CL" "$@"
}

cmd_http() {
    require_up
    exec ip netns exec "$NS_CL" curl -s -f -m "$LAB_HTTP_TIMEOUT" "http://$LAB_VIP:8080/"
}

cmd_http2() {
    require_up
    exec ip netns exec "$NS_CL" curl -s -f -m "$LAB_HTTP_TIMEOUT" "http://$LAB_VIP2:8081/"
}

# ---------------------------------------------------------------- packet loss

# The rules live in the node's network namespace, which outlives power
# cycles (like the cables): loss/noloss work on a powered-off node and the
# rules stay until noloss (or down). <node>/loss holds "PERCENT IF...".
# ipt N ARGS...: iptables (nft backend) inside node N's netns, not its holder:
# the netns exists whether or not the node is powered on.
ipt() {
    local n=$1
    shift
    ip netns exec "$(node_ns "$n")" iptables -w 5 "$@"
}

loss_remove() {
    local n=$1
    while ipt "$n" -C INPUT -j "$LOSS_CHAIN" 2>/dev/null; do
        ipt "$n" -D INPUT -j "$LOSS_CHAIN"
    done
    if ipt "$n" -nL "$LOSS_CHAIN" >/dev/null 2>&1; then
        ipt "$n" -F "$LOSS_CHAIN"
        ipt "$n" -X "$LOSS_CHAIN"
    fi
    rm -f "$(node_dir "$n")/loss"
}

# loss NODE PERCENT [IF...]: replaces NODE's loss rules by one DROP rule per
# IF (default eth1; eth0 too for a medium that also runs over the LAN):
# -i IF -p udp --dport 694 -m statistic --mode random --probability P/100.
# PERCENT 0 = noloss.
cmd_loss() {
    local n pct prob d ifc
    n=$(node_num "${1:-}")
    pct=${2:-}
    if ! [[ $pct =~ ^[0-9]+(\.[0-9]+)?$ ]] || ! awk -v p="$pct" 'BEGIN { exit !(p <= 100) }'; then
        die "usage: loss NODE PERCENT [IF...] (PERCENT 0..100, e.g. 20 or 2.5; IF eth1 (default) and/or eth0)"
    fi
    shift 2
    (($# > 0)) || set -- eth1
    for ifc in "$@"; do
        case $ifc in eth0 | eth1) ;; *) die "loss: interface must be eth0 or eth1 (got '$ifc')" ;; esac
    done
    require_up
    command -v iptables >/dev/null || die "iptables not found (scripts/setup.sh installs it)"
    d=$(node_dir "$n")
    loss_remove "$n"
    if awk -v p="$pct" 'BEGIN { exit !(p == 0) }'; then
        log "node$n: loss 0 %: no loss rule"
        return 0
    fi
    prob=$(awk -v p="$pct" 'BEGIN { printf "%.5f", p / 100 }')
    ipt "$n" -N "$LOSS_CHAIN"
    for ifc in "$@"; do
        ipt "$n" -A "$LOSS_CHAIN" -i "$ifc" -p udp --dport 694 \
            -m statistic --mode random --probability "$prob" -j DROP
    done
    ipt "$n" -I INPUT 1 -j "$LOSS_CHAIN"
    echo "$pct $*" >"$d/loss"
    if holder_pid "$n" >/dev/null; then
        log "node$n: dropping $pct % of incoming UDP to port 694 on $* (probability $prob)"
    else
        log "node$n (powered off): dropping $pct % of incoming UDP to port 694 on $* once it is on (rule stays until noloss)"
    fi
}

cmd_noloss() {
    local n
    n=$(node_num "${1:-}")
    require_up
    command -v iptables >/dev/null || die "iptables not found (scripts/setup.sh installs it)"
    loss_remove "$n"
    log "node$n: no packet loss"
}

# ---------------------------------------------------------------- uplink cut

# uplinkcut NODE: everything in and out of NODE's eth0 (the LAN: router,
# client, the eth0 medium) is dropped by iptables in NODE's netns; the
# crossover eth1 stays. Like loss, the rules outlive power cycles.
# Several nodes: the chains are made first and the jumps inserted last, one
# node right after the other, so that the uplinks go down nearly together.
cmd_uplinkcut() {
    local n
    uplink_nodes uplinkcut "$@"
    for n in "${UPLINK_NODES[@]}"; do
        uplink_remove "$n"
        ipt "$n" -N "$UPLINK_CHAIN"
        ipt "$n" -A "$UPLINK_CHAIN" -i eth0 -j DROP
        ipt "$n" -A "$UPLINK_CHAIN" -o eth0 -j DROP
    done
    for n in "${UPLINK_NODES[@]}"; do
        ipt "$n" -I INPUT 1 -j "$UPLINK_CHAIN"
        ipt "$n" -I OUTPUT 1 -j "$UPLINK_CHAIN"
    done
    for n in "${UPLINK_NODES[@]}"; do
        log "node$n: LAN uplink cut (eth0 drops everything; eth1 untouched)"
    done
}

# uplink_nodes VERB NODE...: UPLINK_NODES=(the numbers of NODE...) for
# uplinkcut and uplinkrestore, once the lab is up and iptables is there; dies
# with VERB's usage when no NODE is given.
uplink_nodes() {
    local verb=$1 n
    shift
    (($# > 0)) || die "usage: $verb NODE [NODE]"
    UPLINK_NODES=()
    for n in "$@"; do
        UPLINK_NODES+=("$(node_num "$n")")
    done
    require_up
    command -v iptables >/dev/null || die "iptables not found (scripts/setup.sh installs it)"
}

uplink_remove() {
    local n=$1 c
    for c in INPUT OUTPUT; do
        while ipt "$n" -C "$c" -j "$UPLINK_CHAIN" 2>/dev/null; do
            ipt "$n" -D "$c" -j "$UPLINK_CHAIN"
        done
    done
    if ipt "$n" -nL "$UPLINK_CHAIN" >/dev/null 2>&1; then
        ipt "$n" -F "$UPLINK_CHAIN"
        ipt "$n" -X "$UPLINK_CHAIN"
    fi
}

cmd_uplinkrestore() {
    local n
    uplink_nodes uplinkrestore "$@"
    for n in "${UPLINK_NODES[@]}"; do
        uplink_remove "$n"
        log "node$n: LAN uplink restored"
    done
}

# loss_of N: "PERCENT IF..." in force on node N ("" if none)
loss_of() {
    local f
    f=$(node_dir "$1")/loss
    [[ -r $f ]] || return 0
    ns_exists "$(node_ns "$1")" && ipt "$1" -C INPUT -j "$LOSS_CHAIN" 2>/dev/null || return 0
    cat "$f"
}

cmd_holds() {
    local n ip
    n=$(node_num "${1:-}")
    ip=${2:-}
    [[ -n $ip ]] || die "usage: holds NODE IP"
    require_up
    ip -n "$(node_ns "$n")" -o -4 addr show |
        awk -v ip="${ip%%/*}" '{ split($4, a, "/"); if (a[1] == ip) f = 1 } END { exit !f }'
}

cmd_ps() {
    local ns pids
    if pids=$(serial_pid); then
        if serial_is_cut "$pids"; then echo "serial cable (no namespace): CUT (socat stopped)"; else echo "serial cable (no namespace):"; fi
        ps -o pid=,ppid=,pgid=,args= -p "$pids" | sed 's/^/  /'
    else
        echo "serial cable: (removed)"
    fi
    for ns in "${ALL_NS[@]}"; do
        ns_exists "$ns" || {
            echo "$ns: (no namespace)"
            continue
        }
        pids=$(ns_pids "$ns" | paste -sd, -)
        if [[ -z $pids ]]; then
            echo "$ns: (no processes)"
        else
            echo "$ns:"
            ps -o pid=,ppid=,pgid=,args= -p "$pids" | sed 's/^/  /'
        fi
    done
}

cmd_env() {
    local n d pid
    v() { printf '%s=%q\n' "$1" "$2"; }
    v LAB_ID "$LAB_ID"
    v LAB_RUN "$RUN"
    v LAB_DIR "$LAB_DIR"
    v LAB_REPO "$REPO"
    v HB_JAR "$HB_JAR"
    v LAB_SIM_JAR "$LAB_SIM_JAR"
    v LAB_VIP "$LAB_VIP"
    v LAB_VIP2 "$LAB_VIP2"
    v LAB_AUTH "$(awk '$1 == "1" { print $2 }' "$RUN/node1/ha.d/authkeys" 2>/dev/null || true)"
    v LAB_CLIENT_IP "$CLIENT_IP"
    v NS_N1 "$NS_N1"
    v NS_N2 "$NS_N2"
    v NS_CL "$NS_CL"
    v NS_SW "$NS_SW"
    v LAB_MEDIA "$(sed -n '1s/.*LAB_MEDIA=\([^)]*\)).*/\1/p' "$RUN/node1/ha.d/ha.cf" 2>/dev/null || true)"
    v SERIAL_PIDFILE "$SERIAL_PIDFILE"
    v SERIAL_PID "$(serial_pid 2>/dev/null || true)"
    v SERIAL_LOG "$RUN/serial.log"
    v LAB_SSH "$(ssh_cmd_line)"
    v LAB_SSH_KEY "$SSH_DIR/id_ed25519"
    v LAB_SSH_KNOWN_HOSTS "$SSH_DIR/known_hosts"
    if pid=$(serial_pid 2>/dev/null); then
        if serial_is_cut "$pid"; then v SERIAL_STATE cut; else v SERIAL_STATE plugged; fi
    else
        v SERIAL_STATE removed
    fi
    for n in 1 2; do
        d=$(node_dir "$n")
        v "N${n}_NS" "$(node_ns "$n")"
        v "N${n}_DIR" "$d"
        v "N${n}_CONFIG_DIR" "$d/ha.d"
        v "N${n}_STATE_DIR" "$d/state"
        v "N${n}_HA_CF" "$d/ha.d/ha.cf"
        v "N${n}_AUTHKEYS" "$d/ha.d/authkeys"
        v "N${n}_HARESOURCES" "$d/ha.d/haresources"
        v "N${n}_LABWEB" "$d/ha.d/resource.d/labweb"
        v "N${n}_LABWEB2" "$d/ha.d/resource.d/labweb2"
        v "N${n}_HA_LOG" "$d/ha-log"
        v "N${n}_DAEMON_OUT" "$d/daemon.out"
        v "N${n}_DAEMON_PIDFILE" "$d/daemon.pid"
        v "N${n}_HOLDER_PIDFILE" "$d/holder.pid"
        v "N${n}_HOLDER_PID" "$(holder_pid "$n" 2>/dev/null || true)"
        v "N${n}_DAEMON_PID" "$(daemon_pid "$n" 2>/dev/null || true)"
        v "N${n}_ETH0_IP" "198.18.0.$n"
        v "N${n}_ETH1_IP" "198.18.1.$n"
        v "N${n}_KIND" "$(node_kind "$n")"
        v "N${n}_TTY" "$(node_tty "$n")"
        v "N${n}_HA_DEBUG" "$d/ha-debug"
        v "N${n}_VARLIB" "$d/varlib"
        v "N${n}_LOSS" "$(loss_of "$n")"
        v "N${n}_SRV" "$d/srv"
        v "N${n}_DISK_WEB" "$d/disk-web"
        v "N${n}_VARLIB_JHB" "$d/varlib-jhb"
        v "N${n}_SSHD_PID" "$(sshd_pid "$n" 2>/dev/null || true)"
        v "N${n}_SSHD_LOG" "$d/sshd.log"
    done
}

# ---------------------------------------------------------------- main

# usage_error MESSAGE: a command line the lab cannot run; exit 2 before anything is done
usage_error() {
    echo "${PROG}[$LAB_ID]: error: $*" >&2
    exit 2
}
# The commands whose first argument is NODE (their usage lines); the others take no NODE.
declare -A NODE_USAGE=([start]="start NODE" [stop]="stop NODE" [poweroff]="poweroff NODE"
    [poweron]="poweron NODE" [linkdown]="linkdown NODE IF" [linkup]="linkup NODE IF"
    [exec]="exec NODE [CMD..]" [holds]="holds NODE IP" [status]="status NODE" [hb]="hb NODE [ARGS..]"
    [clstatus]="clstatus NODE ARGS.." [hbcmd]="hbcmd NODE hb_standby|hb_takeover [ARGS]"
    [swap]="swap NODE jheartbeat|heartbeat" [serialgarbage]="serialgarbage NODE BYTES"
    [upsstop]="upsstop NODE" [upsstart]="upsstart NODE" [freeze]="freeze NODE" [thaw]="thaw NODE"
    [loss]="loss NODE PERCENT [IF..]" [noloss]="noloss NODE" [uplinkcut]="uplinkcut NODE [NODE]"
    [uplinkrestore]="uplinkrestore NODE [NODE]" [srvumount]="srvumount NODE" [srvmount]="srvmount NODE"
    [privdev]="privdev NODE" [syslogd]="syslogd NODE start|stop")
OTHER_VERBS=" up down clean client http http2 serialcut serialplug ps env ssh-cmd -h --help help "

cmd=${1:-}
(($# > 0)) && shift
# A typo or a forgotten NODE is one line and exit 2, checked before root and before any namespace.
if [[ -n $cmd && -n ${NODE_USAGE[$cmd]+x} ]]; then
    [[ -n ${1:-} ]] || usage_error "usage: ${NODE_USAGE[$cmd]} (NODE is missing: node1|node2)"
elif [[ -n $cmd && $OTHER_VERBS != *" $cmd "* ]]; then
    usage_error "unknown command '$cmd' (the list: $0 help)"
fi
case $cmd in -h | --help | help | "") ;; *) [[ $EUID -eq 0 ]] || die "must run as root" ;; esac
case $cmd in
    up) cmd_up ;;
    down) cmd_down ;;
    clean) cmd_clean ;;
    start) cmd_start "$@" ;;
    stop) cmd_stop "$@" ;;
    poweroff) cmd_poweroff "$@" ;;
    poweron) cmd_poweron "$@" ;;
    linkdown) cmd_link down "$@" ;;
    linkup) cmd_link up "$@" ;;
    exec) cmd_exec "$@" ;;
    client) cmd_client "$@" ;;
    http) cmd_http ;;
    http2) cmd_http2 ;;
    loss) cmd_loss "$@" ;;
    noloss) cmd_noloss "$@" ;;
    uplinkcut) cmd_uplinkcut "$@" ;;
    uplinkrestore) cmd_uplinkrestore "$@" ;;
    holds) cmd_holds "$@" ;;
    status) cmd_status "$@" ;;
    hb) cmd_hb "$@" ;;
    clstatus) cmd_clstatus "$@" ;;
    hbcmd) cmd_hbcmd "$@" ;;
    swap) cmd_swap "$@" ;;
    serialcut) cmd_serialcut "$@" ;;
    serialplug) cmd_serialplug ;;
    serialgarbage) cmd_serialgarbage "$@" ;;
    upsstop) cmd_upsstop "$@" ;;
    upsstart) cmd_upsstart "$@" ;;
    freeze) cmd_freeze "${1:-}" STOP ;;
    thaw) cmd_freeze "${1:-}" CONT ;;
    ps) cmd_ps ;;
    env) cmd_env ;;
    ssh-cmd) cmd_ssh_cmd ;;
    srvumount) cmd_srvmount "${1:-}" umount ;;
    srvmount) cmd_srvmount "${1:-}" mount ;;
    privdev) cmd_privdev "$@" ;;
    syslogd) cmd_syslogd "$@" ;;
    -h | --help | help) usage ;;
    "")
        usage >&2
        exit 2
        ;;
    *) usage_error "unknown command '$cmd' (the list: $0 help)" ;;
esac
