"""E-mail in and out: order files taken out of real-looking messages (multipart, quoted-printable,
base64, format=flowed, charsets, mbox), the refusals (no orders, several, HTML only, quoted
reply, not an e-mail), and the whole flow through the command line: validate and adjudicate an
.eml, `--mail OUT` writes one ready-to-send message per player, the archive keeps the extracted
YAML byte for byte and `pbem replay` agrees. A refusal writes nothing."""
from __future__ import annotations

import base64
import hashlib
import os
import quopri
import shutil
import stat
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core.actions import new_campaign
from pbem.core.campaign import Campaign
from pbem.core.errors import PbemError
from pbem.core.mail import extract_orders, is_mail, split_mbox, unflow

KEY = "5" * 64
PLAYERS = {"soviet": {"name": "Anna Kowalska", "email": "anna@example.org"},
           "western": {"name": "Ben", "email": "ben@example.org"}}
MOVE_OK = "phases:\n  - phase: soviet.movement\n    moves:\n      - {unit: yu-1, to: '0422'}\n"

# A fixed order file for the parsing tests (no campaign needed: the bytes only).
ORDERS = ("# yaml-language-server: $schema=../schemas/orders.schema.json\n"
          "schema: pbem/orders/v1\ngame: bfg\ncampaign: 'c1'\nplayer: soviet\nturn: 1\n"
          "state: " + "ab" * 32 + "\n" + MOVE_OK)


# issue 16/23: every mail of every example under ~150 KB (they were 336-847 KB)
MAIL_BOUND = 160_000


def unzip(data: bytes, name: str) -> bytes:
    import io
    import zipfile
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.namelist() == [name]
        return z.read(name)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def codes(e: PbemError) -> list[str]:
    return [i.code for i in e.issues]


def crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode("ascii")


def b64_lines(data: bytes) -> str:
    s = base64.b64encode(data).decode("ascii")
    return "\n".join(s[k:k + 76] for k in range(0, len(s), 76))


# ----------------------------------------------------------------------------- hand-written messages
def multipart_base64(yaml: bytes, *, name: str = "soviet-t01.yaml", ctype: str = "application/x-yaml") -> bytes:
    """As Thunderbird writes it: a text part and a base64 attachment, CRLF line ends."""
    return crlf(f"""Return-Path: <anna@example.org>
Received: from mail.example.org (mail.example.org [192.0.2.10])
\tby mx.example.net with ESMTPS id 4XyZ; Mon, 03 Mar 2025 20:14:07 +0100
Message-ID: <8f1c2a9e-77a1-4bd4-9c1e-3a1f0d5e2b44@example.org>
Date: Mon, 3 Mar 2025 20:14:05 +0100
MIME-Version: 1.0
User-Agent: Mozilla Thunderbird
Content-Language: en-US
To: Game Master <gm@example.net>
From: Anna Kowalska <anna@example.org>
Subject: berlin45 turn 1 Soviet orders
Content-Type: multipart/mixed;
 boundary="------------0aBcDeFgHiJkLmNoPqRsTuVw"

This is a multi-part message in MIME format.
--------------0aBcDeFgHiJkLmNoPqRsTuVw
Content-Type: text/plain; charset=UTF-8; format=flowed
Content-Transfer-Encoding: 7bit

Hi,

my orders for turn 1 are attached.

Anna

--------------0aBcDeFgHiJkLmNoPqRsTuVw
Content-Type: {ctype}; charset=UTF-8; name="{name}"
Content-Disposition: attachment; filename="{name}"
Content-Transfer-Encoding: base64

{b64_lines(yaml)}

--------------0aBcDeFgHiJkLmNoPqRsTuVw--
""")


def qp_body(yaml: str) -> bytes:
    """A plain-text body in quoted-printable: long lines broken with `=` soft breaks, `=`
    written `=3D`, a non-ASCII character as `=C3=BC`."""
    encoded = quopri.encodestring(yaml.encode("utf-8")).decode("ascii")
    return crlf("""From: Anna Kowalska <anna@example.org>
To: gm@example.net
Subject: Re: [pbem] bfg c1 - turn 1 Soviet replacement phase
Date: Mon, 3 Mar 2025 20:14:05 +0100
Message-ID: <qp-1@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: quoted-printable

""" + encoded)


def alternative(text_part: str | None, html_part: str) -> bytes:
    parts = ""
    if text_part is not None:
        parts += f"""--alt-7f3e
Content-Type: text/plain; charset="us-ascii"
Content-Transfer-Encoding: 7bit

{text_part}
"""
    parts += f"""--alt-7f3e
Content-Type: text/html; charset="utf-8"
Content-Transfer-Encoding: 7bit

<html><body><div dir="ltr"><pre>{html_part}</pre></div></body></html>

--alt-7f3e--
"""
    return crlf("""From: Ben <ben@example.org>
To: gm@example.net
Subject: my orders
Message-ID: <alt-1@mail.example.org>
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="alt-7f3e"

""" + parts)


# ----------------------------------------------------------------------------- extraction
def test_multipart_mixed_base64_attachment_gives_the_exact_bytes():
    raw = multipart_base64(ORDERS.encode("utf-8"))
    assert is_mail("orders", raw)
    assert extract_orders(raw, "msg.eml") == [("msg.eml#soviet-t01.yaml", ORDERS.encode("utf-8"))]
    # CRLF inside the file itself is kept as sent (base64 carries the file's own bytes)
    crlf_file = ORDERS.replace("\n", "\r\n").encode("utf-8")
    assert extract_orders(multipart_base64(crlf_file), "m.eml")[0][1] == crlf_file
    # known by its content type alone (no .yaml name), or by its name alone (octet-stream)
    assert extract_orders(multipart_base64(ORDERS.encode(), name="orders.txt", ctype="text/yaml"), "m.eml")[0][1] == ORDERS.encode()
    assert extract_orders(multipart_base64(ORDERS.encode(), name="o.YML", ctype="application/octet-stream"), "m.eml")[0][0] == "m.eml#o.YML"


def test_a_bom_in_the_attachment_is_kept_and_refused_by_the_yaml_loader(tmp_path):
    data = b"\xef\xbb\xbf" + ORDERS.encode()
    assert extract_orders(multipart_base64(data), "m.eml")[0][1] == data
    (tmp_path / "m.eml").write_bytes(multipart_base64(data))
    camp = _campaign(tmp_path)
    r = run("validate", camp, tmp_path / "m.eml")
    assert r.exit_code == 2 and "YAML-ENCODING" in r.output and "m.eml#soviet-t01.yaml" in r.output, r.output


def test_quoted_printable_body_with_soft_breaks():
    text = ORDERS.replace("# yaml-language-server: $schema=../schemas/orders.schema.json\n",
                          "# Grüße: hex 0422 = Zagreb, a comment long enough to be broken by a soft line break\n")
    raw = qp_body(text)
    assert b"=\r\n" in raw and b"=3D" in raw and b"=C3=BC" in raw      # really encoded
    assert extract_orders(raw, "qp.eml") == [("qp.eml#body", text.encode("utf-8"))]


def test_multipart_alternative_uses_the_text_part():
    html = ORDERS.replace("\n", "<br>\n")
    got = extract_orders(alternative(ORDERS, html), "alt.eml")
    assert got == [("alt.eml#body", ORDERS.encode())]


def test_html_only_body_is_refused():
    with pytest.raises(PbemError) as e:
        extract_orders(alternative(None, ORDERS.replace("\n", "<br>\n")), "html.eml")
    assert codes(e.value) == ["MAIL-HTML-ONLY"]
    assert "attach the .yaml file" in e.value.issues[0].hint
    assert int(e.value.exit_code) == 2


def test_no_orders_names_what_was_found():
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "anna@example.org", "gm@example.net", "orders"
    m.set_content("Sorry, my orders will come tomorrow.\n")
    m.add_attachment(b"\x89PNG\r\n\x1a\n", maintype="image", subtype="png", filename="map.png")
    with pytest.raises(PbemError) as e:
        extract_orders(m.as_bytes(), "none.eml")
    assert codes(e.value) == ["MAIL-NO-ORDERS"]
    hint = e.value.issues[0].hint
    assert "text/plain" in hint and "image/png 'map.png'" in hint


def test_two_attachments_are_refused():
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "anna@example.org", "gm@example.net", "orders"
    m.set_content("both files\n")
    m.add_attachment(ORDERS.encode(), maintype="application", subtype="yaml", filename="a.yaml")
    m.add_attachment(ORDERS.encode(), maintype="application", subtype="yaml", filename="b.yml")
    with pytest.raises(PbemError) as e:
        extract_orders(m.as_bytes(), "two.eml")
    assert codes(e.value) == ["MAIL-SEVERAL-ORDERS"]
    assert "a.yaml" in e.value.issues[0].message and "b.yml" in e.value.issues[0].message


def test_an_attachment_wins_over_the_body():
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "anna@example.org", "gm@example.net", "orders"
    m.set_content("old copy:\n" + ORDERS)
    m.add_attachment(b"schema: pbem/orders/v1\n", maintype="application", subtype="yaml", filename="new.yaml")
    assert extract_orders(m.as_bytes(), "m.eml") == [("m.eml#new.yaml", b"schema: pbem/orders/v1\n")]


def test_mbox_with_two_messages_from_two_players():
    western = ORDERS.replace("player: soviet", "player: western")
    m1 = EmailMessage()
    m1["From"], m1["To"], m1["Subject"] = "Anna <anna@example.org>", "gm@example.net", "soviet"
    m1.set_content("attached\n")
    m1.add_attachment(ORDERS.encode(), maintype="application", subtype="yaml", filename="soviet.yaml")
    m2 = EmailMessage()
    m2["From"], m2["To"], m2["Subject"] = "Ben <ben@example.org>", "gm@example.net", "western"
    m2.set_content("Hello,\n\n" + western + "\n-- \nBen\nFrom the front\n")
    mbox = (b"From anna@example.org Mon Mar  3 20:14:05 2025\n" + m1.as_bytes() + b"\n"
            b"From ben@example.org Mon Mar  3 21:02:11 2025\n" + m2.as_bytes().replace(b"\nFrom the", b"\n>From the") + b"\n")
    assert is_mail("inbox", mbox) and len(split_mbox(mbox)) == 2
    got = extract_orders(mbox, "inbox.mbox")
    assert got == [("inbox.mbox#1/soviet.yaml", ORDERS.encode()), ("inbox.mbox#2/body", western.encode())]


def test_mbox_message_without_orders_is_named():
    m = EmailMessage()
    m["From"], m["Subject"] = "ben@example.org", "chat"
    m.set_content("no orders here\n")
    mbox = b"From a Mon Mar  3 20:14:05 2025\n" + qp_body(ORDERS) + b"\n\nFrom b Mon Mar  3 20:14:06 2025\n" + m.as_bytes()
    with pytest.raises(PbemError) as e:
        extract_orders(mbox, "in.mbox")
    assert codes(e.value) == ["MAIL-NO-ORDERS"] and "message 2 of 2" in e.value.issues[0].message


def test_quoted_reply_is_refused():
    quoted = "".join("> " + line + "\n" for line in ORDERS.splitlines())
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "anna@example.org", "gm@example.net", "Re: orders"
    m.set_content("Same as last time.\n\nOn Mon, 3 Mar 2025, Anna wrote:\n" + quoted)
    with pytest.raises(PbemError) as e:
        extract_orders(m.as_bytes(), "re.eml")
    assert codes(e.value) == ["MAIL-QUOTED"] and "attach" in e.value.issues[0].hint
    # new orders on top of a quoted message: refused too, rather than guessing where they end
    m.set_content(ORDERS + "\nOn Mon, 3 Mar 2025, Ben wrote:\n> thanks\n")
    with pytest.raises(PbemError) as e:
        extract_orders(m.as_bytes(), "re.eml")
    assert codes(e.value) == ["MAIL-QUOTED"]


def test_format_flowed_body_is_unflowed():
    """Thunderbird's default: format=flowed. The sender stuffs a space before lines that start
    with a space and breaks long lines after a space (RFC 3676); both are undone."""
    meant = ORDERS.replace(MOVE_OK, "phases:\n  - phase: soviet.movement\n    moves:\n"
                           "      - {unit: sov-1bf, path: ['2425', '2424', '2423']}\n")
    sent = meant.replace("\n  - phase", "\n   - phase").replace("\n    moves", "\n     moves") \
                .replace("\n      - {unit: sov-1bf, path: ['2425', ", "\n       - {unit: sov-1bf, path: ['2425', \n")
    assert "['2425', \n'2424'" in sent
    raw = crlf("""From: anna@example.org
Subject: orders
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8; format=flowed
Content-Transfer-Encoding: 7bit

""" + sent)
    assert extract_orders(raw, "f.eml") == [("f.eml#body", meant.encode())]


def test_unflow_rules():
    assert unflow("a \nb\n c") == "a b\nc"
    assert unflow("a \nb", delsp=True) == "ab"
    assert unflow("x \n-- \nsig") == "x \n-- \nsig"


def test_latin1_body_is_reencoded_as_utf8():
    text = ORDERS.replace("# yaml-language-server: $schema=../schemas/orders.schema.json", "# Grüße aus Köln")
    m = EmailMessage()
    m["From"], m["Subject"] = "anna@example.org", "orders"
    m.set_content(text, charset="iso-8859-1", cte="quoted-printable")
    assert b"=FC" in m.as_bytes()
    assert extract_orders(m.as_bytes(), "l.eml")[0][1] == text.encode("utf-8")


def test_greeting_and_signature_are_left_out():
    m = EmailMessage()
    m["From"], m["Subject"] = "anna@example.org", "orders"
    m.set_content("Hi Ben,\n\n" + ORDERS + "\n-- \nAnna Kowalska\nhttps://example.org\n")
    assert extract_orders(m.as_bytes(), "g.eml")[0][1] == ORDERS.encode()


def test_not_an_email():
    assert not is_mail("orders.yaml", ORDERS.encode())
    assert not is_mail("orders.yaml", b"\xef\xbb\xbf" + ORDERS.encode())
    assert is_mail("x.EML", b"")
    assert is_mail("x", b"Subject: hi\nX-Other: y\n\nbody")
    for raw in (b"\x00\x01\x02garbage\xff", ORDERS.encode()):
        with pytest.raises(PbemError) as e:
            extract_orders(raw, "bad.eml")
        assert codes(e.value) == ["MAIL-UNREADABLE"]


# ----------------------------------------------------------------------------- the command line
def _campaign(tmp_path: Path, players=PLAYERS) -> Path:
    folder = tmp_path / "c1"
    new_campaign(folder, scenario="bfg-historical", campaign_id="c1", players=players, options={}, key_hex=KEY)
    return folder


def _orders_for(folder: Path, body: str = MOVE_OK, player: str = "soviet") -> bytes:
    _, st = Campaign(folder).current()
    return (f"schema: pbem/orders/v1\ngame: {st['game']}\ncampaign: '{st['campaign']}'\nplayer: {player}\n"
            f"turn: {st['turn']}\nstate: {st['hash']}\n" + body).encode("utf-8")


def snapshot(root: Path) -> dict[str, tuple]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = Path(dirpath) / n
            st = os.lstat(p)
            out[str(p.relative_to(root))] = (hashlib.sha256(p.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode) else "dir",
                                             stat.S_IMODE(st.st_mode))
    return out


def _parse(path: Path):
    return BytesParser(policy=policy.default).parsebytes(path.read_bytes())


def test_validate_and_adjudicate_an_eml_then_mail_out(tmp_path):
    import pbem.bfg
    from pbem.core.png import png_converter
    drawn = callable(getattr(pbem.bfg.GAME, "draw_map", None))   # the map picture, once the game draws it
    # a PNG where a converter is (CI has cairosvg), else the SVG (test_mail_map_as_svg_without_a_converter)
    pic = "c1-001-map.png" if png_converter() else "c1-001-map.svg.zip"
    camp = _campaign(tmp_path)
    yaml = _orders_for(camp)
    eml = tmp_path / "from-anna.eml"
    eml.write_bytes(multipart_base64(yaml))
    r = run("validate", camp, eml)
    assert r.exit_code == 0 and "OK: 0 error(s)" in r.output, r.output
    out = tmp_path / "outbox"
    r = run("adjudicate", camp, eml, "--mail", out, "--mail-from", "GM <gm@example.net>")
    assert r.exit_code == 0, r.output
    step = camp / "steps" / "001"
    archived = next(step.glob("orders-*.yaml"))
    assert archived.read_bytes() == yaml                     # the extracted YAML, byte for byte
    assert sorted(p.name for p in out.iterdir()) == ["step-001-to-soviet.eml", "step-001-to-western.eml"]
    state_name = Campaign(camp).state_path(step).name
    for player, to in (("soviet", "Anna Kowalska <anna@example.org>"), ("western", "Ben <ben@example.org>")):
        msg = _parse(out / f"step-001-to-{player}.eml")
        assert not msg.defects
        assert str(msg["To"]) == to and str(msg["From"]) == "GM <gm@example.net>"
        assert str(msg["Subject"]) == "[pbem] bfg c1 - turn 1 Soviet combat phase - step 001 (awaiting: soviet orders)"
        assert msg["Date"] is None and msg["Message-ID"].endswith(f".001.{player}@pbem.localhost>")
        atts = {a.get_filename(): a for a in msg.iter_attachments()}
        assert set(atts) == {state_name, "report.json"} | ({pic} if drawn else set())
        assert atts[state_name].get_content_type() == "application/yaml"
        assert atts[state_name].get_payload(decode=True) == (step / state_name).read_bytes()
        assert atts["report.json"].get_payload(decode=True) == (step / "report.json").read_bytes()
        body = msg.get_body(("plain",)).get_content()
        assert (step / "report.txt").read_text() in body
        assert "pbem sends nothing itself" in body and ("no map picture" in body) != drawn
        if drawn and pic.endswith(".png"):
            assert atts[pic].get_content_type() == "image/png"
            assert atts[pic].get_payload(decode=True).startswith(b"\x89PNG\r\n\x1a\n")
            assert f"{pic} (a preview of the map; to zoom and see unit details, draw it as SVG: pbem map {state_name} " \
                   f"--report report.json -o c1-001-map.svg)" in body
            # issue 8: mails were ~580 KB with the SVG; issue 16: 336 KB with the full-size PNG
            assert (out / f"step-001-to-{player}.eml").stat().st_size < MAIL_BOUND
        elif drawn:
            assert b"<svg" in unzip(atts["c1-001-map.svg.zip"].get_payload(decode=True), "c1-001-map.svg")
        if player == "soviet":
            assert f"pbem orders template {state_name} --player soviet" in body and "that is you" in body
        else:
            assert "Nothing is awaited from you now." in body
    r = run("replay", camp)
    assert r.exit_code == 0 and "REPLAY OK: 1 step(s)" in r.output, r.output
    # a message of the next step already in the outbox: refused before anything is
    # adjudicated (FILE-EXISTS), nothing written
    (out / "step-002-to-western.eml").write_bytes(b"an older message")
    eml2 = tmp_path / "again.eml"
    eml2.write_bytes(qp_body(_orders_for(camp, "phases: []\n").decode()))
    before = snapshot(tmp_path)
    r = run("adjudicate", camp, eml2, "--mail", out)
    assert r.exit_code == 74 and "FILE-EXISTS" in r.output and snapshot(tmp_path) == before, r.output


def test_messages_are_deterministic(tmp_path):
    """The same step gives the same bytes: no clock, no random boundary."""
    from pbem.core.mail import write_step_mail
    from pbem.core.step import adjudicate_campaign
    camp = _campaign(tmp_path)
    p = tmp_path / "o.yaml"
    p.write_bytes(_orders_for(camp))
    res = adjudicate_campaign(camp, [p])
    w1, _, _ = write_step_mail(camp, res, tmp_path / "a")
    w2, _, _ = write_step_mail(camp, res, tmp_path / "b", date="Mon, 03 Mar 2025 20:00:00 +0000")
    w3, _, _ = write_step_mail(camp, res, tmp_path / "c")
    for (a, _), (b, _), (c, _) in zip(w1, w2, w3):
        assert a.read_bytes() == c.read_bytes()
        assert b.read_bytes() != a.read_bytes() and b"\nDate: Mon, 03 Mar 2025 20:00:00 +0000\n" in b.read_bytes()
        assert b"=_pbem_" in a.read_bytes()
    with pytest.raises(PbemError) as e:                      # never overwritten; every one named at once
        write_step_mail(camp, res, tmp_path / "a")
    assert codes(e.value) == ["FILE-EXISTS", "FILE-EXISTS"]


def test_player_without_email_gets_a_message_without_to(tmp_path):
    camp = _campaign(tmp_path, {"soviet": {"name": "Anna", "email": "anna@example.org"}, "western": {"name": "Ben"}})
    eml = tmp_path / "m.eml"
    eml.write_bytes(qp_body(_orders_for(camp).decode()))
    r = run("adjudicate", camp, eml, "--mail", tmp_path / "out")
    assert r.exit_code == 0 and "warning MAIL-NO-ADDRESS" in r.output, r.output
    msg = _parse(tmp_path / "out" / "step-001-to-western.eml")
    assert msg["To"] is None and msg["Subject"].startswith("[pbem] bfg c1 - turn 1")


def test_mail_map_as_svg_without_a_converter(tmp_path, monkeypatch):
    """No PNG converter: the map goes as SVG, and the game master is told how to get the small
    PNG instead (MAIL-MAP-SVG, a warning: the step and the mails are written)."""
    import pbem.core.png as png
    monkeypatch.setattr(png, "png_converter", lambda: None)
    camp = _campaign(tmp_path)
    eml = tmp_path / "m.eml"
    eml.write_bytes(multipart_base64(_orders_for(camp)))
    r = run("adjudicate", camp, eml, "--mail", tmp_path / "out")
    assert r.exit_code == 0 and "warning MAIL-MAP-SVG" in r.output and "pbem[png]" in r.output, r.output
    msg = _parse(tmp_path / "out" / "step-001-to-soviet.eml")
    atts = {a.get_filename(): a for a in msg.iter_attachments()}
    assert atts["c1-001-map.svg.zip"].get_content_type() == "application/zip"
    assert unzip(atts["c1-001-map.svg.zip"].get_payload(decode=True), "c1-001-map.svg").startswith(b"<?xml")
    body = msg.get_body(("plain",)).get_content()
    assert "c1-001-map.svg.zip (the whole map as SVG, zipped: unzip it and open c1-001-map.svg in a web browser)" in body
    assert "pbem[png]" not in body and (tmp_path / "out" / "step-001-to-soviet.eml").stat().st_size < MAIL_BOUND


def test_draw_map_is_attached_when_the_game_has_it(tmp_path, monkeypatch):
    import pbem.bfg as g
    calls = []

    def draw_map(rs, state, report=None):
        calls.append((state["step"], report["step"]))
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"
    monkeypatch.setattr(g.GAME, "draw_map", draw_map, raising=False)
    camp = _campaign(tmp_path)
    eml = tmp_path / "m.eml"
    eml.write_bytes(multipart_base64(_orders_for(camp)))
    r = run("adjudicate", camp, eml, "--mail", tmp_path / "out")
    assert r.exit_code == 0, r.output
    msg = _parse(tmp_path / "out" / "step-001-to-soviet.eml")
    atts = {a.get_filename(): a for a in msg.iter_attachments()}
    assert unzip(atts["c1-001-map.svg.zip"].get_payload(decode=True), "c1-001-map.svg").startswith(b"<svg")
    assert calls == [(1, 1)] and "no map picture" not in msg.get_body(("plain",)).get_content()
    from pbem.core.png import png_converter
    if png_converter():                   # a picture without a size cannot become a PNG: the SVG goes
        assert "warning MAIL-MAP-SVG" in r.output and "could not convert" in r.output, r.output


def test_without_draw_map_the_picture_is_skipped_and_noted(tmp_path, monkeypatch):
    import pbem.bfg as g
    monkeypatch.setattr(g.GAME, "draw_map", None)
    camp = _campaign(tmp_path)
    eml = tmp_path / "m.eml"
    eml.write_bytes(multipart_base64(_orders_for(camp)))
    r = run("adjudicate", camp, eml, "--mail", tmp_path / "out")
    assert r.exit_code == 0 and "mail: no map picture" in r.output, r.output
    msg = _parse(tmp_path / "out" / "step-001-to-soviet.eml")
    assert [a.get_filename() for a in msg.iter_attachments()][1:] == ["report.json"]
    assert "(no map picture: this game cannot draw one yet)" in msg.get_body(("plain",)).get_content()


@pytest.mark.parametrize("kind,code,exit_code", [
    ("html", "MAIL-HTML-ONLY", 2),
    ("none", "MAIL-NO-ORDERS", 2),
    ("quoted", "MAIL-QUOTED", 2),
    ("garbage", "MAIL-UNREADABLE", 2),
    ("illegal", "BFG-UNIT-UNKNOWN", 3),
])
def test_refusals_write_nothing(tmp_path, kind, code, exit_code):
    camp = _campaign(tmp_path)
    yaml = _orders_for(camp).decode()
    raw = {
        "html": alternative(None, yaml.replace("\n", "<br>")),
        "none": alternative("see you next week", "<p>see you</p>"),
        "quoted": qp_body("On Monday Anna wrote:\n" + "".join("> " + ln + "\n" for ln in yaml.splitlines())),
        "garbage": b"\x00\x01\x02 not a message",
        "illegal": qp_body(_orders_for(camp, MOVE_OK.replace("yu-1", "nobody")).decode()),
    }[kind]
    eml = tmp_path / "in.eml"
    eml.write_bytes(raw)
    before = snapshot(tmp_path)
    for cmd in (["validate", camp, eml], ["adjudicate", camp, eml, "--mail", tmp_path / "out"]):
        r = run(*cmd)
        assert r.exit_code == exit_code, r.output
        assert f"error {code}:" in r.output and "Traceback" not in r.output, r.output
        assert "in.eml" in r.output
        assert snapshot(tmp_path) == before
    assert not (tmp_path / "out").exists()


def test_validate_an_mbox_reports_every_message(tmp_path):
    camp = _campaign(tmp_path)
    good = qp_body(_orders_for(camp).decode())
    bad = alternative(None, "<p>orders</p>")
    mbox = tmp_path / "inbox"
    mbox.write_bytes(b"From anna Mon Mar  3 20:14:05 2025\n" + good + b"\n\nFrom ben Mon Mar  3 20:15:05 2025\n" + bad + b"\n")
    r = run("validate", camp, mbox)
    assert r.exit_code == 2 and "error MAIL-HTML-ONLY" in r.output and "message 2 of 2" in r.output, r.output
    mbox.write_bytes(b"From anna Mon Mar  3 20:14:05 2025\n" + good + b"\n")
    assert run("validate", camp, mbox).exit_code == 0


def test_plain_order_files_are_not_taken_for_mail(tmp_path):
    """Existing behaviour is unchanged: order files still go through the order file loader."""
    camp = _campaign(tmp_path)
    p = tmp_path / "orders.yaml"
    p.write_bytes(_orders_for(camp))
    r = run("validate", camp, p)
    assert r.exit_code == 0, r.output
    shutil.copy(p, tmp_path / "orders.txt")
    assert run("validate", camp, tmp_path / "orders.txt").exit_code == 0
