"""Real mail servers on loopback for the judge's tests: Debian's dovecot (IMAP; a throwaway
configuration in a temporary folder, one passwd-file user, 127.0.0.1 on a free port) and an
SMTP server (aiosmtpd, in this process) that delivers the judge's mail into the dovecot
mailbox (IMAP APPEND) and keeps every other recipient's mail in a list."""
from __future__ import annotations

import contextlib
import imaplib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
PASSWORD = "s3cret-judge"
JUDGE = "judge@example.net"


def crlf(raw: bytes) -> bytes:
    """A message as SMTP carries it: every line ended by CRLF."""
    import re
    return re.sub(rb"\r?\n", b"\r\n", raw)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Dovecot:
    """``dovecot -F`` with its own configuration; :meth:`stop` ends it (by its process id).
    Each test takes a user (a mailbox) of its own (:meth:`new_user`), one of ``users`` written
    into the passwd-file before dovecot starts (it caches that file by its time, to the second)."""

    def __init__(self, users: int = 20):
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
        os.chmod(self.dir, 0o755)
        self.port = free_port()
        me = pwd.getpwuid(os.geteuid())
        if os.geteuid() == 0:       # mail processes never run as root: the mailbox belongs to nobody
            mail = pwd.getpwnam("nobody")
            internal, login = "dovecot", "dovenull"
        else:
            mail, internal, login = me, me.pw_name, me.pw_name
        self.taken = 0
        self.mail = self.dir / "mail"
        self.mail.mkdir()
        lines = []
        for k in range(1, users + 1):
            home = self.mail / f"judge{k}"
            home.mkdir()
            os.chown(home, mail.pw_uid, mail.pw_gid)
            lines.append(f"judge{k}:{{PLAIN}}{PASSWORD}:{mail.pw_uid}:{mail.pw_gid}::{home}::\n")
        (self.dir / "passwd").write_text("".join(lines))
        conf = f"""
base_dir = {self.dir}/run
state_dir = {self.dir}/state
log_path = {self.dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {internal}
default_login_user = {login}
first_valid_uid = {min(mail.pw_uid, 1)}
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = username_format=%u {self.dir}/passwd
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {self.dir}/passwd
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""
        (self.dir / "dovecot.conf").write_text(conf)
        self.proc = subprocess.Popen([DOVECOT, "-F", "-c", str(self.dir / "dovecot.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        end = time.monotonic() + 15
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"dovecot stopped: {self.proc.stderr.read().decode()} {self.logtext()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("dovecot did not listen within 15 s: " + self.logtext())

    def logtext(self) -> str:
        p = self.dir / "dovecot.log"
        return p.read_text(errors="replace") if p.exists() else ""

    def new_user(self) -> str:
        self.taken += 1
        return f"judge{self.taken}"

    def imap(self, user: str) -> imaplib.IMAP4:
        c = imaplib.IMAP4("127.0.0.1", self.port)
        c.login(user, PASSWORD)
        return c

    def append(self, raw: bytes, user: str) -> None:
        c = self.imap(user)
        try:
            typ, data = c.append("INBOX", "", imaplib.Time2Internaldate(time.time()), raw)
            assert typ == "OK", data
        finally:
            c.logout()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


class Smtp:
    """aiosmtpd on 127.0.0.1: mail to the judge is APPENDed into dovecot (``user``'s INBOX), the rest kept in
    :attr:`delivered` as (recipient, bytes). :meth:`stop` and :meth:`start` take it down and up
    on the same port."""

    def __init__(self, dovecot: Dovecot | None, user: str = "", routes: dict[str, str] | None = None):
        """``routes``: more addresses delivered into dovecot, to the user given."""
        self.dovecot = dovecot
        self.routes = {JUDGE: user} | (routes or {})
        self.refuse: set[str] = set()       # recipients refused for good (550)
        self.port = free_port()
        self.delivered: list[tuple[str, bytes]] = []
        self.controller = None
        self.start()

    def start(self) -> None:
        from aiosmtpd.controller import Controller
        outer = self

        class Handler:
            async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
                if address.lower() in outer.refuse:
                    return "550 5.1.1 no such user here"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):
                raw = envelope.original_content or envelope.content
                for rcpt in envelope.rcpt_tos:
                    if rcpt.lower() in outer.routes and outer.dovecot is not None:
                        outer.dovecot.append(raw, outer.routes[rcpt.lower()])
                    else:
                        outer.delivered.append((rcpt.lower(), raw))
                return "250 OK"
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def to(self, rcpt: str) -> list[bytes]:
        return [raw for r, raw in self.delivered if r == rcpt]
