"""pbem.core.mailwrite: a step's message written without the email package (issue 35) is the
message the email package writes, byte for byte; anything not plain goes through that package."""
from __future__ import annotations

from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from pbem.core import mail, mailwrite

ROOT = Path(__file__).resolve().parents[2]

_words = st.from_regex(r"[A-Za-z0-9_-]{1,12}", fullmatch=True)
names = st.one_of(st.just(""), st.lists(_words, min_size=1, max_size=4).map(" ".join),
                  st.text(alphabet="Ab .,-_'\"éü()<>@\\\t", max_size=20))
emails = st.one_of(
    st.builds(lambda a, b, c: f"{a}@{b}.{c}", st.from_regex(r"[A-Za-z0-9_+-]{1,10}(\.[a-z0-9]{1,5})?", fullmatch=True),
              st.from_regex(r"[a-z0-9-]{1,12}", fullmatch=True), st.sampled_from(["org", "net", "example.co.uk"])),
    st.sampled_from(["pbem@localhost", "a..b@x.org", "a.@x.org", "noat.example.org", "a@b@c.org", "ü@x.org",
                     "a b@x.org", "<a@x.org>", "a@-x.org", "A.B-c+d@Sub.Example.ORG", "a@x."]))
subjects = st.one_of(
    st.lists(st.from_regex(r"[\x21-\x7e]{1,14}", fullmatch=True), min_size=1, max_size=30).map(" ".join),
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=160),
    st.text(min_size=1, max_size=60)).filter(lambda s: s.splitlines() == [s])     # (a header is one line)
bodies = st.one_of(st.text(max_size=400), st.text(alphabet="ab \t\r\n=.-─é", max_size=400),
                   st.lists(st.text(alphabet="x ", min_size=70, max_size=90), max_size=4).map("\n".join))
files = st.one_of(st.from_regex(r"[A-Za-z0-9._-]{1,80}", fullmatch=True),
                  st.text(alphabet='ab. "é\\;', min_size=1, max_size=20))
attachments = st.lists(st.builds(mail.Attachment, files, st.binary(max_size=300),
                                 st.sampled_from(["application", "image", "text"]),
                                 st.sampled_from(["yaml", "json", "png", "zip", "plain"]), st.just("")),
                       max_size=4)


def _headers(frm, info, subject, date, player, campaign):
    return [("From", frm), *([("To", info)] if info.get("email") else []), ("Subject", subject),
            *([("Date", date)] if date else []),
            ("Message-ID", f"<pbem.{'0' * 32}.007.{player}@pbem.localhost>"),
            ("References", f"<pbem.{'1' * 32}@pbem.localhost>"),
            ("X-Pbem-Campaign", campaign), ("X-Pbem-Step", "007")]


def _check(frm, info, subject, date, player, campaign, body, atts):
    """The plain bytes, when there are any, are the email package's; returns them."""
    assume(not mail.check_addresses({"players": {player: info}}, frm))
    headers = _headers(frm, info, subject, date, player, campaign)
    data, to = mail._plain_message(headers, body, atts, [], "seed\0007")
    msg = mail._message(player, headers, body, atts, "seed\0007")
    if data is not None:
        assert data == msg.as_bytes(policy=policy.default)
        assert to == (str(msg["To"]) if msg["To"] is not None else None)
    return data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(frm=st.one_of(emails, st.builds(lambda n, e: f"{n} <{e}>", names, emails)), name=names, email=emails,
       subject=subjects, date=st.sampled_from([None, None, None, "Thu, 3 Dec 2026 01:02:03 +0000"]),
       player=st.from_regex(r"[A-Za-z][A-Za-z0-9_.+-]{0,14}", fullmatch=True),
       campaign=st.from_regex(r"[A-Za-z0-9_ -]{1,30}", fullmatch=True), body=bodies, atts=attachments)
def test_plain_bytes_are_the_email_packages(frm, name, email, subject, date, player, campaign, body, atts):
    _check(frm, {"name": name, "email": email}, subject, date, player, campaign, body, atts)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.lists(_words, max_size=3).map(" ".join), subject=subjects.filter(lambda s: s.isascii() and s.isprintable()),
       player=st.from_regex(r"[a-z]{1,7}", fullmatch=True), body=bodies,
       atts=st.lists(st.builds(mail.Attachment, st.from_regex(r"[a-z0-9.-]{1,65}", fullmatch=True),
                               st.binary(min_size=1, max_size=2000), st.just("application"), st.just("yaml"),
                               st.just("")), min_size=1, max_size=3))
def test_the_plain_case_is_written_plainly(name, subject, player, body, atts):
    """Plain addresses, names and an ASCII subject of single spaces: written without the package."""
    subject = " ".join(subject.split()) or "s"
    assume(all(len(w) <= 60 for w in subject.split(" ")) and "=?" not in subject)
    data = _check("GM <gm@example.net>", {"name": name, "email": "p.q@example.org"}, subject, None, player, "bw39",
                  body, atts)
    assert data is not None


@pytest.mark.parametrize("frm, info, date", [
    ("GM <gm@example.net>", {"name": "Ünal", "email": "u@example.org"}, None),     # an encoded word
    ("GM <gm@example.net>", {"name": "J. Smith", "email": "j@example.org"}, None),  # a quoted name
    ('"G. M." <gm@example.net>', {"name": "Ben", "email": "b@example.org"}, None),
    ("GM <gm@example.net>", {"name": "Ben", "email": "b@example.org"}, "Thu, 3 Dec 2026 01:02:03 +0000"),
])
def test_what_is_not_plain_goes_through_the_email_package(frm, info, date):
    atts = [mail.Attachment("s.yaml", b"schema: x\n", "application", "yaml", "")]
    headers = _headers(frm, info, "a subject", date, "allies", "bw39")
    assert mail._plain_message(headers, "body\n", atts, [], "seed") == (None, None)
    out = mail.Outgoing("allies", "x.eml", lambda: mail._message("allies", headers, "body\n", atts, "seed"))
    assert isinstance(out.message, EmailMessage)
    assert out.data() == out.message.as_bytes(policy=policy.default) and out.to == str(out.message["To"])


@given(name=names, email=emails)
@settings(max_examples=300, deadline=None)
def test_a_plain_address_is_one_the_package_writes_so(name, email):
    """check_addresses takes a plain address without the email package: that package takes it too, as written."""
    plain = mailwrite.plain_address(name, email)
    if plain is not None:
        a = mail._address("p", {"name": name, "email": email})
        assert not isinstance(a, mail.Issue) and str(a) == plain
    frm = f"{name} <{email}>" if name else email
    plain = mailwrite.plain_sender(frm)
    if plain is not None:
        m = EmailMessage(policy=policy.default)
        m["From"] = frm
        assert len(m["From"].addresses) == 1 and not m["From"].defects and str(m["From"]) == plain


@pytest.mark.parametrize("example, step", [("blitzwar-1939", None), ("blitzwar-1939", 0), ("bfg-historical", None),
                                           ("blitzwar-chain-signed", None), ("bfg-chain", None)])
def test_the_examples_messages(example, step):
    """The examples' messages are written plainly, and are the email package's bytes."""
    n, msgs, _, _ = mail.step_messages(ROOT / "examples" / example, step, svg=example == "bfg-historical")
    assert msgs
    for m in msgs:
        assert m._data is not None, m.filename
        assert m.data() == m.message.as_bytes(policy=policy.default)
