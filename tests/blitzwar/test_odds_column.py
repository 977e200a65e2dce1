"""16.2: the land combat table's column of the odds read in whole numbers
(pbem.blitzwar.combat.odds_column, issue 35) is the column the odds read as fractions give, on
the shipped table and on any table of columns."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from pbem.blitzwar.combat import odds_column
from pbem.core.data import load_ruleset


def by_fractions(ratios, lo, a, d):
    """The reading the game had: the odds a fraction, compared with each column's."""
    odds = Fraction(a, d)
    base = -1
    for i, (_, r) in enumerate(ratios):
        if odds >= r:
            base = i
    return base, odds >= ratios[-1][1] + 1, odds < lo


def test_the_shipped_table_reads_as_with_fractions():
    _, w = load_ruleset("blitzwar-1939")
    assert [r for _, r in w.crt_ratios] == [Fraction(*map(int, c.split("-"))) for c in w.crt_columns]
    for a in range(0, 61):
        for d in range(1, 41):
            assert odds_column(w.crt_ratios, w.crt_below, a, d) == by_fractions(w.crt_ratios, w.crt_below, a, d), (a, d)


ratio = st.tuples(st.integers(1, 12), st.integers(1, 12)).map(lambda t: Fraction(*t))


@settings(max_examples=300, deadline=None)
@given(st.lists(ratio, min_size=1, max_size=9, unique=True), ratio, st.integers(0, 200), st.integers(1, 200))
def test_any_table_reads_as_with_fractions(rs, lo, a, d):
    ratios = [(f"{r.numerator}-{r.denominator}", r) for r in sorted(rs)]
    assert odds_column(ratios, lo, a, d) == by_fractions(ratios, lo, a, d)
