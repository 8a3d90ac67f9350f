#!/usr/bin/env bash
# Installs what building and testing jheartbeat needs on Debian 12 (run as root).
# Only missing packages are installed, so a second run costs a few dpkg queries.
set -euo pipefail

PACKAGES=(
  openjdk-17-jdk-headless maven    # build
  iproute2 iputils-arping          # ip netns / ip addr / gratuitous ARP (lab, IPaddr agent)
  socat curl                       # labweb HTTP server, client probes
  procps util-linux                # ps, nsenter, unshare (lab)
  heartbeat cluster-glue           # the real Heartbeat 3.0.6 interop peer, cl_status, stonith(8)
  fence-agents                     # ClusterLabs fence agents (fence_dummy drives the fence_agent device)
  iptables                         # lab.sh loss/noloss: packet loss inside a node namespace
  openssh-server openssh-client rsync  # lab: sshd per node, hb config push, data replication
  e2fsprogs                        # mkfs.ext4 for lab disk images
  fdisk                            # sfdisk -d: the layout record of whole-system backups
  asciidoctor                      # packaging: man pages (picocli's AsciiDoc to troff)
  lintian man-db systemd           # packaging: DebPackageIT (lintian, man -w, systemd-analyze verify)
  resource-agents kmod             # OCF agents (AgentClassesIT: IPaddr2, Filesystem; Filesystem needs modprobe)
  lighttpd                         # a real Debian LSB service (AgentClassesIT: lsb:lighttpd inside the nodes)
  lighttpd-mod-openssl openssl     # HealthChecksIT: https real server, its throw-away certificate
  exim4-daemon-light dovecot-imapd dovecot-pop3d dnsmasq-base  # HealthChecksIT: smtp, imap(s)/pop, dns real servers
  samba samba-common-bin           # nmbd (bookworm ships it in samba) and nmblookup: Hostname's NetBIOS takeover
  nut-server nut-client            # NutUpsdIT: a real upsd with the dummy-ups driver, upscmd and upsc
  bind9 bind9-dnsutils             # named (a dynamic zone in the lab) and nsupdate/dig: Hostname's DNS takeover
  stress-ng                        # StressDeathsIT, bench/stress-deaths.sh, bench/soak.sh: CPU, memory and sync() load
                                   # (~25 MB with libipsec-mb1 and a few small mesa/xcb libraries, a few seconds)
  python3                          # director tests: the recording ipvsadm, LvsDirectorIT's real HTTP servers (fence-agents already pulls it in)
  pacemaker-cli-utils              # crm_verify, crm_simulate (PacemakerExportIT, hb export pacemaker); pulls in
                                   # corosync + pacemaker (corosync -t); their services are kept from starting
  crmsh pcs                        # PacemakerScriptsIT: crm.txt and pcs.sh run offline on a CIB file (~25 MB with
                                   # ruby, puma and python3-lxml, ~10 s; replaces inetutils-ping by iputils-ping)
  # the town hall (TownhallIT, ./demo.sh townhall; lab/townhall): node1's web group (MariaDB, Apache
  # with PHP), node2's mail group (Exim and Dovecot, above; Exim, not Postfix: they conflict)
  mariadb-server apache2 libapache2-mod-php php-mysql   # ~330 MB, ~30 s on a fresh install
  # and the rest of the seed's room (TownhallIT): ProFTPD and Tomcat in node1's group, Samba as the
  # domain controller (smbclient logs on from the client) and SpamAssassin in node2's (~40 s, ~100 packages, mostly Perl)
  proftpd-core tomcat10 spamd smbclient
  # NfsTargetIT: a real NFS server in a lab node. This kernel has no nfsd (nor an NFS client), so the kernel's
  # server cannot run in a namespace: NFS-Ganesha, user space, with its VFS FSAL (~15 MB with libntirpc);
  # nfs-common: mount.nfs, which a job with automount calls (and the refusal the test expects without a client)
  nfs-ganesha nfs-ganesha-vfs nfs-common
  # PrometheusFilesTest: promtool check rules / promtool test rules on the shipped alert rules (Debian ships
  # promtool only in the server package: ~96 MB installed, ~10 s; its service is kept from starting)
  prometheus
  chromium chromium-driver         # WebConsoleIT: the web console in a real headless browser (Selenium drives chromedriver)
)

if [ "$(id -u)" -ne 0 ]; then
  echo "setup.sh: run as root (it installs packages and the lab needs network namespaces)" >&2
  exit 1
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Packages such as openssh-server and heartbeat would start their system services on install;
  # the lab runs its own daemons inside namespaces, so keep services from starting (invoke-rc.d's
  # policy-rc.d, exit 101 = action forbidden) unless the machine already has a policy.
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
