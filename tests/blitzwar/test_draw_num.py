"""The BlitzWAR map's numbers: :func:`num` and the outline's points written many at a time
(:func:`_points_text`, the mail step's speed) give the bytes of the first definition, the
rounding of ``f"{v:.1f}"`` with the trailing zero and ``-0`` taken out."""
import random

from pbem.blitzwar import draw_base as D


def reference(v: float) -> str:
    s = f"{float(v):.1f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


EDGES = [0.0, -0.0, -0.04, 0.04, -0.05, 0.05, -0.0499, 10.0, -10.0, 100.0, 1e20, -1e-9, 2.25, -2.25, 0.95,
         -0.95, 9.95, -9.96, 5, 0, -3, float("inf"), float("-inf")]


def test_num_as_the_reference():
    rnd = random.Random(35)
    vals = EDGES + [rnd.uniform(-3000, 3000) for _ in range(20_000)] + [rnd.randrange(-200, 200) / 20 for _ in range(5_000)]
    assert [D.num(v) for v in vals] == [reference(v) for v in vals]


def test_points_text_as_num_point_by_point():
    rnd = random.Random(36)
    for _ in range(3_000):
        flat = [rnd.choice([rnd.uniform(-100, 100), round(rnd.uniform(-3, 3), 1), 0.0, -0.02]) for _ in range(2 * rnd.randrange(1, 12))]
        k, ox, oy = rnd.choice([0.6, 1.0, 0.3]), rnd.choice([0, -2750, 0.01]), rnd.choice([0, -2450])
        want = " L".join(f"{reference((flat[i] - ox) * k)} {reference((flat[i + 1] - oy) * k)}" for i in range(0, len(flat), 2))
        assert D._points_text(flat, k, ox, oy) == want


def reference_attrs(cls, data, attrs) -> str:
    """The writer's attributes as first written: every value through ``attr``, a float
    through ``num`` first, each name from its keyword."""
    from pbem.core.svg import attr
    parts = [f'class="{attr(cls)}"'] if cls else []
    for k, v in (data or {}).items():
        if v is not None:
            parts.append(f'data-{k}="{attr(v)}"')
    for k, v in attrs.items():
        if v is None:
            continue
        if isinstance(v, float):
            v = D.num(v)
        parts.append(f'{k.rstrip("_").replace("_", "-")}="{attr(v)}"')
    return (" " + " ".join(parts)) if parts else ""



def _values():
    from hypothesis import strategies as st
    return st.one_of(st.none(), st.floats(allow_nan=False, width=32), st.integers(-10**6, 10**6),
                     st.text(alphabet=st.sampled_from('ab <>&"\'\n\t\x01\ufffe-.0'), max_size=8),
                     st.sampled_from(["url(#pat-mountain)", "M1 2 L3 4 Z", "#ffffff", "none", "0.85"]))


def test_the_writer_s_attributes_as_first_written():
    """Svg._a (a name worked out once a keyword, a number or a plain string not escaped again)
    writes the bytes of its first definition, whatever the values."""
    from hypothesis import given, settings, strategies as st
    names = st.sampled_from(["x", "y", "stroke_width", "class_", "font_size", "text_anchor", "d", "fill_rule_"])

    @settings(max_examples=400, deadline=None)
    @given(st.one_of(st.none(), st.text(max_size=6)), st.one_of(st.none(), st.dictionaries(st.sampled_from(["zone", "sea"]), _values())),
           st.dictionaries(names, _values()))
    def check(cls, data, attrs):
        assert D.Svg()._a(cls, data, attrs) == reference_attrs(cls, data, attrs)
    check()
