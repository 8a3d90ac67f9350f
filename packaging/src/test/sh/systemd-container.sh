#!/bin/sh
# systemd-container.sh SCRATCH DEB: boots this machine's systemd (Debian 12: 252) as PID 1 of new pid,
# mount, uts, ipc, net and cgroup namespaces, on a root made of throw-away overlays of /usr, /etc and
# /var, with DEB copied to /root/ (SystemdUnitIT). Prints "pid1 N" (the container's systemd, as this
# machine numbers it), then stays until its parent (the test JVM) or the container is gone; then
# kills the container's PID 1 (by pid: the kernel ends every process of its pid namespace, the mount
# namespace with its overlays and tmpfs goes with them) and removes the container's cgroup.
#
# What the container cannot touch: the machine's network (a new network namespace: only lo, plus
# what the test adds there), its hostname (uts), its services and cgroups (systemd sees only its own
# cgroup2 subtree, and boots jhb-it.target: sysinit and sockets, none of the machine's enabled
# services), its files (overlays; the rest of the root is a fresh tmpfs), /dev (a tmpfs with the
# harmless nodes; /dev/console is /dev/null, no /dev/kmsg), its sysctls (/proc/sys read-only). It
# runs without CAP_SYS_BOOT, CAP_SYS_TIME and CAP_SYS_MODULE (and reboot() in a child pid namespace
# only ends that namespace).
set -eu

if [ "${1:-}" = --init ]; then
    # PID 1 of the new namespaces: build the root, pivot into it, exec systemd
    s=$2 deb=$3
    mount --make-rprivate /
    mount -t tmpfs -o mode=0700 jhb-it-sysd "$s"
    mkdir -p "$s/root" "$s/up"
    r=$s/root
    mount -t tmpfs -o mode=0755 jhb-it-sysd-root "$r"
    for d in usr etc var; do
        mkdir -p "$s/up/$d/u" "$s/up/$d/w" "$r/$d"
        mount -t overlay jhb-it-sysd -o "lowerdir=/$d,upperdir=$s/up/$d/u,workdir=$s/up/$d/w" "$r/$d"
    done
    for l in bin sbin lib lib64; do
        [ ! -e "/$l" ] || ln -s "usr/$l" "$r/$l"
    done
    mkdir -p "$r/proc" "$r/sys" "$r/dev" "$r/run" "$r/tmp" "$r/root" "$r/home" "$r/srv" "$r/mnt"
    chmod 1777 "$r/tmp"
    chmod 0700 "$r/root"
    mount -t proc proc "$r/proc"
    # most of /proc/sys is the machine's, not the namespaces' (fs.file-max, fs.protected_*, kernel.*):
    # read-only, so PID 1's fs.file-max bump fails and systemd-sysctl, binfmt and the like are skipped
    # (ConditionPathIsReadWrite=/proc/sys/), as systemd-nspawn does
    for p in sys sysrq-trigger irq bus fs acpi; do
        [ -e "$r/proc/$p" ] || continue
        mount --bind "$r/proc/$p" "$r/proc/$p"
        mount -o remount,bind,ro "$r/proc/$p"
    done
    mount -t sysfs -o ro sysfs "$r/sys"
    # the cgroup namespace's root is the cgroup the outer script made: systemd's whole tree
    mount -t cgroup2 -o nsdelegate cgroup2 "$r/sys/fs/cgroup"
    mount -t tmpfs -o mode=0755,nosuid jhb-it-sysd-dev "$r/dev"
    for n in null zero full random urandom tty; do
        touch "$r/dev/$n"
        mount --bind "/dev/$n" "$r/dev/$n"
    done
    touch "$r/dev/console"
    mount --bind /dev/null "$r/dev/console"
    mkdir "$r/dev/pts" "$r/dev/shm"
    mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$r/dev/pts"
    ln -s pts/ptmx "$r/dev/ptmx"
    ln -s /proc/self/fd "$r/dev/fd"
    for i in 0:stdin 1:stdout 2:stderr; do ln -s "/proc/self/fd/${i%%:*}" "$r/dev/${i#*:}"; done
    mount -t tmpfs -o mode=0755,nosuid,nodev jhb-it-sysd-run "$r/run"
    head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$r/etc/machine-id"
    echo jhb-it-sysd >"$r/etc/hostname"
    cat >"$r/etc/systemd/system/jhb-it.target" <<'T'
[Unit]
Description=jheartbeat SystemdUnitIT boot target (sysinit and sockets only)
Requires=sysinit.target sockets.target
After=sysinit.target sockets.target
AllowIsolate=yes
T
    cp "$deb" "$r/root/"
    cd "$r"
    mkdir .oldroot
    pivot_root . .oldroot
    umount -l /.oldroot
    rmdir /.oldroot
    export container=jhb-it
    exec setpriv --bounding-set -sys_boot,-sys_time,-sys_module \
        /lib/systemd/systemd --unit=jhb-it.target --log-target=journal --show-status=no
fi

scratch=$1 deb=$2
jvm=$PPID
cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ -z "$cg2" ]; then
    echo "systemd-container: no cgroup2 hierarchy is mounted on this machine (systemd needs one)" >&2
    exit 1
fi
cg=$cg2/jhb-it-sysd-$$
mkdir "$cg"

remove_cgroup() {
    i=0
    while [ -d "$cg" ] && [ $i -lt 50 ]; do
        find "$cg" -depth -type d -exec rmdir {} + 2>/dev/null || sleep 0.2
        i=$((i + 1))
    done
    [ ! -d "$cg" ] || echo "systemd-container: could not remove $cg" >&2
}

# only the process that becomes unshare enters the new cgroup, this script stays where it was
sh -c 'echo $$ >"$1/cgroup.procs" && exec unshare --pid --fork --mount --uts --ipc --net --cgroup \
    --propagation private -- "$2" --init "$3" "$4"' holder "$cg" "$0" "$scratch" "$deb" &
u=$!
pid1=
while [ -z "$pid1" ]; do
    if ! kill -0 "$u" 2>/dev/null; then
        wait "$u" || true
        remove_cgroup
        echo "systemd-container: unshare ended before the container's PID 1 started" >&2
        exit 1
    fi
    pid1=$(cat "/proc/$u/task/$u/children" 2>/dev/null | tr -d ' ') || true
    [ -n "$pid1" ] || sleep 0.1
done
echo "pid1 $pid1"
while kill -0 "$jvm" 2>/dev/null && kill -0 "$u" 2>/dev/null; do
    sleep 1
done
kill -KILL "$pid1" 2>/dev/null || true
wait "$u" || true
remove_cgroup
echo "systemd-container: ended"
