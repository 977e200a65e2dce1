"""pbem.core.signing: the signature line of order, answer, reveal and opening files (issue 17)."""
from __future__ import annotations

import pytest

from pbem.core.signing import check, new_key_pair, public_of, sign, split

BODY = b"schema: pbem/orders/v1\nplayer: ussr\nphases: []\n"


@pytest.fixture(scope="module")
def keys():
    return {p: new_key_pair() for p in ("ussr", "allies")}


def pub(keys):
    return {p: k[1] for p, k in keys.items()}


def test_a_signed_file_is_the_file_and_one_comment_line(keys):
    signed = sign(BODY, "ussr", keys["ussr"][0])
    assert signed.startswith(BODY) and signed.count(b"\n") == BODY.count(b"\n") + 1
    assert split(signed)[0] == BODY and split(signed)[1][0] == "ussr"
    assert check(signed, "f", "ussr", pub(keys)) == ([], "signed")
    assert sign(signed, "ussr", keys["ussr"][0]) == signed           # signing again: the same line
    assert sign(BODY.rstrip(b"\n"), "ussr", keys["ussr"][0]) == signed  # a last line without newline
    assert public_of(keys["ussr"][0]) == keys["ussr"][1]


@pytest.mark.parametrize("attack, code", [
    (lambda s, k: s[:len(BODY)], "SIG-MISSING"),                                  # cut at a line boundary
    (lambda s, k: s + b"phases: [x]\n", "SIG-MISSING"),                         # a line added after it
    (lambda s, k: s.replace(b"phases: []", b"phases: [] "), "SIG-BAD"),          # one byte changed
    (lambda s, k: sign(BODY, "allies", k["allies"][0]), "SIG-WRONG-PLAYER"),      # another player's file
    (lambda s, k: sign(BODY, "ussr", k["allies"][0]), "SIG-WRONG-PLAYER"),        # the name, another key
])
def test_attacks_on_a_signed_file(keys, attack, code):
    signed = sign(BODY, "ussr", keys["ussr"][0])
    issues, status = check(attack(signed, keys), "f", "ussr", pub(keys))
    assert status == "bad" and [i.code for i in issues] == [code]


def test_unsigned_is_fine_only_without_a_key(keys):
    assert check(BODY, "f", "ussr", {}) == ([], "unsigned")
    assert check(BODY, "f", "ussr", pub(keys))[0][0].code == "SIG-MISSING"
    # a signature nobody can check is not taken for one
    assert check(sign(BODY, "ussr", keys["ussr"][0]), "f", "ussr", {})[0][0].code == "SIG-NO-KEY"
