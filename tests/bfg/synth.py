"""The synthetic map of the rule cases lives in the package (pbem/bfg/synth.py) so that the
game-neutral case runner (pbem/core/cases.py) can build it; tests import it from here."""
from pbem.bfg.synth import *  # noqa: F403
from pbem.bfg.synth import ROOT, rules_docs, scenario_doc, synth_map  # noqa: F401
