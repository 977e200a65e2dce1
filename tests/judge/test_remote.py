"""The mail-server side of the judge without a server: what SMTP is given (CRLF, a Date of the
round, no Bcc), waiting by polling where the IMAP server offers no IDLE, passwords."""
from __future__ import annotations

import os
import time
from datetime import datetime, timezone

import pytest

from pbem.core.errors import PbemError
from pbem.judge.remote import Account, ImapFetcher, _prepare, read_secret


def test_what_smtp_is_given():
    raw = (b"From: judge@example.net\nTo: Anna <anna@example.org>, ben@example.org\nCc: gm@example.net\n"
           b"Bcc: olga@example.com,\n pat@example.com\nSubject: hi\n\nline one\nline two\n")
    data, rcpts = _prepare(raw, datetime(2026, 3, 2, 18, 0, tzinfo=timezone.utc))
    assert rcpts == ["anna@example.org", "ben@example.org", "gm@example.net", "olga@example.com", "pat@example.com"]
    assert data.startswith(b"Date: Mon, 02 Mar 2026 18:00:00 +0000\r\n")
    assert b"Bcc" not in data and b"pat@" not in data and b"\n" not in data.replace(b"\r\n", b"")
    assert data.endswith(b"\r\nline one\r\nline two\r\n")
    dated = b"Date: Sun, 01 Mar 2026 10:00:00 +0000\r\n" + raw
    assert _prepare(dated, datetime(2026, 3, 2, tzinfo=timezone.utc))[0].count(b"Date:") == 1


class NoIdle:
    def capabilities(self):
        return (b"IMAP4REV1",)


def test_waiting_without_idle_polls_until_stopped(tmp_path):
    f = ImapFetcher(Account("imap", "127.0.0.1", 143, "none", "u"), "INBOX", tmp_path / "m", tmp_path / "s", print)
    f.client = NoIdle()
    t = time.monotonic()
    f.wait(1.2, lambda: False)          # the time given, no server to wake it
    assert 1.1 < time.monotonic() - t < 3
    t = time.monotonic()
    f.wait(60, lambda: True)            # stopped: at once
    assert time.monotonic() - t < 1


def test_a_password_file_others_may_read_is_refused(tmp_path):
    p = tmp_path / "pw"
    p.write_text("secret\nignored\n")
    for mode in (0o644, 0o640, 0o604):
        os.chmod(p, mode)
        with pytest.raises(PbemError) as e:
            read_secret(p, "smtp")
        assert e.value.issues[0].code == "JUDGE-CREDENTIALS"
    os.chmod(p, 0o600)
    assert read_secret(p, "smtp") == "secret"
    with pytest.raises(PbemError):
        Account("smtp", "h", 25, "none", "u", password_env="PBEM_TEST_NOT_SET_ANYWHERE").password()
