#!/usr/bin/env python3
"""Real mail servers for the e-mail tests: Dovecot (IMAP, LMTP, SASL for Postfix, virtual users
in Maildirs) and Postfix (SMTP on loopback, delivering every local domain to Dovecot over LMTP),
both with their configuration, queue, mail and logs in one temporary folder.

    mail_servers.py [--tls] <folder> <user:password>...

prints one JSON line {"smtp": port, "imap": port} once both servers answer, then waits; on the
line "stop", when its standard input closes, on SIGTERM or after MAIL_SERVERS_LIFETIME seconds
(900) it stops both servers and exits. Nothing listens
on anything but 127.0.0.1, and no system-wide service is touched.

With --tls, a CA and a certificate for 127.0.0.1 and localhost are made with openssl in the
folder; Dovecot requires TLS (ssl = required: STARTTLS on the IMAP port, and an imaps port),
Postfix requires STARTTLS on its SMTP port and has an smtps port too, and the JSON line adds
"imaps", "smtps" and "ca" (the CA's certificate file)."""
import json
import os
import shutil
import socket
import signal
import subprocess
import sys
import threading
import time

DOMAINS = ["example.org", "example.net", "example.com"]
MAIL_UID = "nobody"
MAIL_GID = "nogroup"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, what, log):
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                if s.recv(200):
                    return
        except OSError:
            time.sleep(0.1)
    sys.stderr.write(f"{what} did not start on {port}\n")
    if os.path.exists(log):
        sys.stderr.write(open(log).read()[-4000:])
    sys.exit(1)


def make_certificates(folder):
    """A CA of the test's own and a server certificate it signed, for 127.0.0.1 and localhost."""
    os.makedirs(folder, exist_ok=True)

    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    ca_key, ca = os.path.join(folder, "ca.key"), os.path.join(folder, "ca.pem")
    key, csr = os.path.join(folder, "server.key"), os.path.join(folder, "server.csr")
    cert, ext = os.path.join(folder, "server.pem"), os.path.join(folder, "server.ext")
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca,
            "-days", "2", "-subj", "/CN=ghostpost test CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj",
            "/CN=localhost")
    with open(ext, "w") as f:
        f.write("subjectAltName = IP:127.0.0.1, DNS:localhost\n"
                "extendedKeyUsage = serverAuth\n")
    openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
            "-out", cert, "-days", "2", "-extfile", ext)
    os.chmod(key, 0o644)  # Postfix's smtpd reads it too; a test's key guards nothing
    return ca, cert, key


def main():
    args = sys.argv[1:]
    tls = args[:1] == ["--tls"]
    if tls:
        args = args[1:]
    root = os.path.abspath(args[0])
    users = [u.split(":", 1) for u in args[1:]]
    smtp, imap, lmtp, auth = free_port(), free_port(), free_port(), free_port()
    smtps, imaps = (free_port(), free_port()) if tls else (0, 0)
    dv = os.path.join(root, "dovecot")
    pf = os.path.join(root, "postfix")
    mail = os.path.join(root, "mail")
    # Postfix and Dovecot drop to their own users: the folders on the way must let them in
    # (a test's temporary folder is made private).
    for d in (os.path.dirname(root), root):
        os.makedirs(d, exist_ok=True)
        os.chmod(d, 0o755)
    for d in (dv, os.path.join(dv, "run"), os.path.join(dv, "state"), pf, mail):
        os.makedirs(d, exist_ok=True)
    shutil.chown(mail, MAIL_UID, MAIL_GID)
    os.chmod(os.path.join(dv, "run"), 0o755)
    with open(os.path.join(dv, "users"), "w") as f:
        for name, password in users:
            f.write(f"{name}:{{PLAIN}}{password}\n")
    ca = cert = key = ""
    if tls:
        ca, cert, key = make_certificates(os.path.join(root, "tls"))
    dovecot_ssl = (f"""ssl = required
ssl_cert = <{cert}
ssl_key = <{key}
""" if tls else "ssl = no\n")
    with open(os.path.join(dv, "dovecot.conf"), "w") as f:
        f.write(f"""
base_dir = {dv}/run
state_dir = {dv}/state
log_path = {dv}/dovecot.log
info_log_path = {dv}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
{dovecot_ssl}disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{mail}/%d/%n
mail_uid = {MAIL_UID}
mail_gid = {MAIL_GID}
first_valid_uid = 1
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
default_login_user = dovenull
default_internal_user = dovecot
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {dv}/users
}}
userdb {{
  driver = static
  args = home={mail}/%d/%n
}}
namespace inbox {{
  inbox = yes
  mailbox Handled {{
    auto = create
  }}
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps}
    ssl = yes
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp}
  }}
  unix_listener lmtp {{
    mode = 0600
  }}
}}
service auth {{
  inet_listener {{
    address = 127.0.0.1
    port = {auth}
  }}
}}
service stats {{
  unix_listener stats-reader {{
    mode = 0600
  }}
  unix_listener stats-writer {{
    mode = 0666
  }}
}}
""")
    for d in ("queue", "data"):
        os.makedirs(os.path.join(pf, d), exist_ok=True)
    shutil.chown(os.path.join(pf, "data"), "postfix", "postfix")
    with open(os.path.join(pf, "main.cf"), "w") as f:
        f.write(f"""compatibility_level = 3.6
queue_directory = {pf}/queue
data_directory = {pf}/data
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mx.example.org
mydomain = example.org
myorigin = example.org
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
virtual_mailbox_domains = {" ".join(DOMAINS)}
virtual_transport = lmtp:inet:127.0.0.1:{lmtp}
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:{auth}
recipient_delimiter = +
smtputf8_enable = no
maillog_file = {pf}/maillog
maillog_file_prefixes = {root}
meta_directory = /etc/postfix
biff = no
append_dot_mydomain = no
delay_warning_time = 0
relayhost =
default_transport = error:outside the test's domains
""")
        if tls:
            f.write(f"""smtpd_tls_cert_file = {cert}
smtpd_tls_key_file = {key}
smtpd_tls_security_level = encrypt
smtpd_tls_auth_only = yes
""")
    with open(os.path.join(pf, "master.cf"), "w") as f:
        if tls:
            f.write(f"""127.0.0.1:{smtps} inet n - n - - smtpd
  -o smtpd_tls_wrappermode=yes
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
""")
        f.write(f"""127.0.0.1:{smtp} inet n - n - - smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
""")
    dovecot_conf = os.path.join(dv, "dovecot.conf")
    subprocess.run(["dovecot", "-c", dovecot_conf], check=True)
    started_postfix = False
    try:
        subprocess.run(["postfix", "-c", pf, "set-permissions"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started = subprocess.run(["postfix", "-c", pf, "start"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        if started.returncode != 0:
            sys.stderr.write(started.stderr)
            log = os.path.join(pf, "maillog")
            if os.path.exists(log):
                sys.stderr.write(open(log).read()[-4000:])
            sys.exit(1)
        started_postfix = True
        wait_for(imap, "Dovecot", os.path.join(dv, "dovecot.log"))
        wait_for(smtp, "Postfix", os.path.join(pf, "maillog"))
        ports = {"smtp": smtp, "imap": imap}
        if tls:
            ports.update({"smtps": smtps, "imaps": imaps, "ca": ca})
        print(json.dumps(ports), flush=True)
        # A test that dies without a word leaves no servers behind for longer than this.
        timer = threading.Timer(float(os.environ.get("MAIL_SERVERS_LIFETIME", "900")),
                                lambda: os.kill(os.getpid(), signal.SIGTERM))
        timer.daemon = True
        timer.start()
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        for line in sys.stdin:
            if line.strip() == "stop":
                break
    finally:
        if started_postfix:
            subprocess.run(["postfix", "-c", pf, "stop"], check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["doveadm", "-c", dovecot_conf, "stop"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
