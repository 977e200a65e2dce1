"""The supply read as fractions kept by what they are made from (context.as_fraction; issue 35
"Speed") is Fraction of the same, value and type: for the forms the state writes and at every
read of a replay of the example campaign (and, named in ``PBEM_KEPT_FOLDERS=folder:folder``,
of more campaigns: the benchmark's whole campaigns); the kept fractions are begun again when
there are too many."""
from __future__ import annotations

from fractions import Fraction

import pytest
from replayed import folders, replay_checking

from pbem.blitzwar import context, land, supply


def test_as_fraction_is_fraction_of_each_form():
    forms = ["0", "1", "12", "12.5", "0.5", " 3 ", "7/2", 0, 1, 3, True, 0.5, 2.0, Fraction(5, 2)]
    for _ in range(2):          # made, then kept
        for x in forms:
            got = context.as_fraction(x)
            assert type(got) is Fraction and got == Fraction(x), x
    assert context.fmt_supply(context.as_fraction("12.5")) == "12.5" == context.fmt_supply("12.5")
    assert context.fmt_supply(3) == "3" and context.fmt_supply(Fraction(7, 2)) == "3.5"
    assert land.cost_of({"type": "infantry", "units": 1}) == Fraction(1, 2)     # (made once, 7)
    assert land.cost_of({"type": "supply", "units": 1}) == Fraction(1)


def test_kept_fractions_are_begun_again_when_too_many(monkeypatch):
    monkeypatch.setattr(context, "_FRACTIONS", {})
    monkeypatch.setattr(context, "_FRACTIONS_MAX", 4)
    for k in range(10):
        assert context.as_fraction(f"{k}.5") == Fraction(2 * k + 1, 2)
        assert len(context._FRACTIONS) <= 4


@pytest.mark.parametrize("folder", folders(), ids=lambda p: p.name)
def test_as_fraction_is_fraction_throughout_a_replay(folder, tmp_path, monkeypatch):
    def check(got, x):
        assert type(got) is Fraction and got == Fraction(x), x

    assert replay_checking(folder, tmp_path, monkeypatch, [context, supply], "as_fraction", check) > 100
