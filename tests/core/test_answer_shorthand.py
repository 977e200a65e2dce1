"""A decision whose options are one-name lists (a BlitzWAR loss of one corps: [[ger-c2-1/armour]])
may be answered with the name alone; lists are compared as sets. Played by hand, the list form
was the only one accepted and nothing said so."""
from pbem.core.kernel import _answer, choice_problem


class _Game:
    def check_choice(self, rs, decision, choice):
        return "no options"


DEC = {"id": "t01.axis.8.blitz.c1.losses.axis", "options": [["ger-c2-1/armour"], ["ger-i3-1/infantry"]]}


def test_a_single_name_answers_a_one_name_list():
    assert choice_problem(_Game(), None, DEC, "ger-c2-1/armour") is None
    assert _answer("ger-c2-1/armour", DEC) == ["ger-c2-1/armour"]
    assert choice_problem(_Game(), None, DEC, ["ger-c2-1/armour"]) is None
    assert choice_problem(_Game(), None, DEC, "ger-x/armour") is not None


def test_names_that_are_options_themselves_stay_names():
    dec = {"id": "d", "options": ["none", "all", ["none"]]}
    assert _answer("none", dec) == "none"
    two = {"id": "d2", "options": [["a/infantry", "b/armour"]]}
    assert choice_problem(_Game(), None, two, ["b/armour", "a/infantry"]) is None   # as a set
    assert choice_problem(_Game(), None, two, "a/infantry") is not None
