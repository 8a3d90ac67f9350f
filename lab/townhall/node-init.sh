#!/bin/sh
# node-init.sh N NODE_DIR — makes lab node N a machine of the town hall (docs/townhall.md).
# Run by lab.sh (LAB_NODE_INIT) as root inside node N's own mount namespace at every power-on,
# after its private /srv, /var/lib/jheartbeat and /run are mounted:
#   - /etc and /var become the node's own: overlays on the host's, whose upper layers live in
#     NODE_DIR/root (kept across power cycles, like a disk), so the two nodes are two machines
#     with the same Debian packages and their own configuration, logs, spools and pid files;
#   - /var/lib/townhall holds the node's two data partitions, ext4 images web.img and mail.img
#     (made on first boot). Neither is mounted here: the group that owns one mounts it
#     (Filesystem::/var/lib/townhall/web.img::/srv/web::ext4::loop), and on the peer the sync
#     job's receiving rsync mounts its replica first (rsync_options in sync.yaml);
#   - the services' configuration: Apache+PHP on 198.18.0.100:80 (DocumentRoot /srv/web/www),
#     MariaDB on a socket only (started by resource.d/townhall-db), Exim (Debian's default MTA) on
#     198.18.0.101:25 and Dovecot IMAP on 198.18.0.101:143, mail in /srv/mail/alice/Maildir.
#     With the demo's extra packages (./demo.sh townhall installs them): ProFTPD on 198.18.0.100:21
#     (user clerk, home /srv/web/ftp), Tomcat 10 on 198.18.0.100:8080 (/townhall from
#     /srv/web/tomcat; resource.d/townhall-tomcat), Samba smbd on 198.18.0.101:445 as the TOWNHALL
#     domain's NT-style primary domain controller (domain logons, share "netlogon" with logon.bat,
#     share "public" = /srv/mail/public; user alice), SpamAssassin spamd on 198.18.0.101:783.
#     Nothing listens on an address outside 198.18.0.0/15 or loopback.
set -eu
n=$1
d=$2
root=$d/root
mkdir -p "$root/etc/u" "$root/etc/w" "$root/var/u" "$root/var/w" "$root/home/u" "$root/home/w" "$d/disks"
mount -t overlay "townhall-etc$n" -o "lowerdir=/etc,upperdir=$root/etc/u,workdir=$root/etc/w" /etc
mount -t overlay "townhall-var$n" -o "lowerdir=/var,upperdir=$root/var/u,workdir=$root/var/w" /var
# root's home too, with a plain .bashrc: the sync's ssh commands run root's shell, and the host's
# dotfiles (e.g. a pyenv rehash waiting 60 s on a lock a powered-off node left) are not this machine's
mount -t overlay "townhall-root$n" -o "lowerdir=/root,upperdir=$root/home/u,workdir=$root/home/w" /root
printf '# root of town hall node%s (lab/townhall/node-init.sh)\n' "$n" >/root/.bashrc
# the overlay hid the node's own /var/lib/jheartbeat (lab.sh bound it before us)
mount --bind "$d/varlib-jhb" /var/lib/jheartbeat
mkdir -p /var/lib/townhall
mount --bind "$d/disks" /var/lib/townhall
mkdir -p /run/mysqld /run/apache2 /run/dovecot /run/exim4 /srv/web /srv/mail
chown mysql:mysql /run/mysqld
chown Debian-exim:Debian-exim /run/exim4 2>/dev/null || true

# the mail user (same uid on both nodes, so replicated files keep their owner)
grep -q '^alice:' /etc/passwd || useradd -u 5001 -M -d /srv/mail/alice -s /usr/sbin/nologin alice
# the FTP user (the town clerk's uploads)
if ! grep -q '^clerk:' /etc/passwd; then
    useradd -u 5002 -M -d /srv/web/ftp -s /bin/sh clerk
    echo 'clerk:townhall' | chpasswd
fi

# the data partitions: ext4 images, each made once with its top directories
mkimage() { # NAME DIR: /var/lib/townhall/NAME.img, 256 MiB (sparse), its tree for DIR
    img=/var/lib/townhall/$1.img
    [ -e "$img" ] && return 0
    truncate -s 256M "$img.new"
    mkfs.ext4 -q -F -L "$1-n$n" "$img.new"
    mnt=$(mktemp -d)
    mount -o loop "$img.new" "$mnt"
    if [ "$1" = web ]; then
        mkdir -p "$mnt/www" "$mnt/dump" "$mnt/ftp" "$mnt/tomcat"
        cp "$(dirname "$0")/index.php" "$mnt/www/index.php"
        cp "$(dirname "$0")/index.jsp" "$mnt/tomcat/index.jsp"
        echo "minutes of the council meeting" >"$mnt/ftp/minutes.txt"
        chown -R clerk:clerk "$mnt/ftp"
    else
        mkdir -p "$mnt/alice/Maildir/cur" "$mnt/alice/Maildir/new" "$mnt/alice/Maildir/tmp" "$mnt/public"
        chown -R alice:alice "$mnt/alice"
        chmod -R go-rwx "$mnt/alice"
        echo "opening hours: Monday to Friday, 8 to 12" >"$mnt/public/opening-hours.txt"
        # the domain's logon share and its account database live on the partition, so the domain
        # controller (smbd) follows the mail group with its users and its domain SID
        mkdir -p "$mnt/netlogon" "$mnt/samba/private"
        printf 'rem town hall logon script\r\nnet use P: \\\\TOWNHALL\\public\r\n' >"$mnt/netlogon/logon.bat"
        if command -v pdbedit >/dev/null 2>&1; then
            conf=$(mktemp)
            printf '[global]\n workgroup = TOWNHALL\n netbios name = TOWNHALL\n passdb backend = tdbsam:%s\n private dir = %s\n' \
                "$mnt/samba/passdb.tdb" "$mnt/samba/private" >"$conf"
            printf 'townhall\ntownhall\n' | pdbedit -s "$conf" -a -t -u alice >/dev/null
            rm -f "$conf"
        fi
    fi
    umount "$mnt"
    rmdir "$mnt"
    mv "$img.new" "$img"
}
mkimage web
mkimage mail

echo "townhall-n$n" >/etc/mailname
# the lab's machines by name (MariaDB, ProFTPD and Exim look their own host name up)
grep -q ' node1$' /etc/hosts || printf '198.18.0.1 node1\n198.18.0.2 node2\n198.18.0.10 client\n' >>/etc/hosts

# Apache + PHP: only the web address; the site is on the data partition
cat >/etc/apache2/ports.conf <<'CONF'
Listen 198.18.0.100:80
CONF
cat >/etc/apache2/sites-available/000-default.conf <<'CONF'
<VirtualHost 198.18.0.100:80>
    ServerName www.townhall.lab
    DocumentRoot /srv/web/www
    <Directory /srv/web/www>
        Require all granted
    </Directory>
    ErrorLog ${APACHE_LOG_DIR}/error.log
    CustomLog ${APACHE_LOG_DIR}/access.log combined
</VirtualHost>
CONF
echo "ServerName www.townhall.lab" >/etc/apache2/conf-enabled/townhall-servername.conf

# Exim: local delivery only, on the mail address, to ~/Maildir
cat >/etc/exim4/update-exim4.conf.conf <<'CONF'
dc_eximconfig_configtype='local'
dc_other_hostnames='townhall.lab'
dc_local_interfaces='198.18.0.101'
dc_readhost=''
dc_relay_domains=''
dc_minimaldns='true'
dc_relay_nets=''
dc_smarthost=''
CFILEMODE='644'
dc_use_split_config='false'
dc_hide_mailname=''
dc_mailname_in_oh='true'
dc_localdelivery='maildir_home'
CONF
# no IPv6 in the lab: Exim must not try to bind ::
grep -q '^disable_ipv6' /etc/exim4/exim4.conf.localmacros 2>/dev/null ||
    echo 'disable_ipv6 = true' >>/etc/exim4/exim4.conf.localmacros

# Dovecot: IMAP only, on the mail address, plain logins (a lab without TLS)
cat >/etc/dovecot/dovecot.conf <<'CONF'
protocols = imap
listen = 198.18.0.101
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
first_valid_uid = 1000
log_path = /var/log/dovecot.log
passdb {
  driver = passwd-file
  args = scheme=PLAIN /etc/dovecot/townhall.passwd
}
userdb {
  driver = passwd-file
  args = /etc/dovecot/townhall.passwd
}
CONF
echo 'alice:{PLAIN}townhall:5001:5001::/srv/mail/alice' >/etc/dovecot/townhall.passwd
chmod 640 /etc/dovecot/townhall.passwd
chgrp dovecot /etc/dovecot/townhall.passwd

# ---- the demo's extra services (configured when their packages are installed)
if [ -d /etc/proftpd ]; then
    cat >/etc/proftpd/conf.d/townhall.conf <<'CONF'
DefaultAddress 198.18.0.100
SocketBindTight on
UseReverseDNS off
DefaultRoot ~
CONF
    sed -i 's/^UseIPv6.*/UseIPv6 off/' /etc/proftpd/proftpd.conf
fi
if [ -d /etc/tomcat10 ]; then
    sed -i 's|<Connector port="8080" protocol="HTTP/1.1"|<Connector port="8080" address="198.18.0.100" protocol="HTTP/1.1"|' \
        /etc/tomcat10/server.xml
    mkdir -p /etc/tomcat10/Catalina/localhost
    echo '<Context docBase="/srv/web/tomcat"/>' >/etc/tomcat10/Catalina/localhost/townhall.xml
    mkdir -p /var/log/tomcat10 /var/cache/tomcat10
    chown tomcat:tomcat /var/log/tomcat10 /var/cache/tomcat10
fi
if [ -d /etc/samba ]; then
    mkdir -p /run/samba
    # an NT-style (classic) primary domain controller for the TOWNHALL domain: domain logons with
    # the logon script from [netlogon]; its account database and secrets (the domain SID) are on
    # the mail partition (made by mkimage above), so whichever node serves the mail group is the DC
    cat >/etc/samba/smb.conf <<'CONF'
[global]
   workgroup = TOWNHALL
   netbios name = TOWNHALL
   server role = classic primary domain controller
   domain logons = yes
   logon script = logon.bat
   logon path =
   passdb backend = tdbsam:/srv/mail/samba/passdb.tdb
   private dir = /srv/mail/samba/private
   interfaces = 198.18.0.101/24
   bind interfaces only = yes
   smb ports = 445
   disable netbios = yes
   map to guest = bad user
   load printers = no
   printcap name = /dev/null
   disable spoolss = yes
   log file = /var/log/samba/log.%m
[netlogon]
   path = /srv/mail/netlogon
   read only = yes
   browseable = no
[public]
   path = /srv/mail/public
   guest ok = yes
   read only = yes
CONF
fi
if [ -f /etc/default/spamd ]; then
    sed -i 's|^OPTIONS=.*|OPTIONS="-s /var/log/spamd.log --create-prefs --max-children 2 --helper-home-dir --listen=198.18.0.101 --allowed-ips=198.18.0.0/24"|' \
        /etc/default/spamd
fi
