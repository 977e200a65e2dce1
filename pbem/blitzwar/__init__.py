"""BlitzWAR (Víctor Catalá; Ludic 2006; Command Magazine Japan Vol. 80 as 『ヒトラー電撃戦』).

The modules stand in layers by rulebook chapter (issue 30); a module imports only its own layer
and the layers below, so a rule can be read, tested and changed with only what lies under it in
view, and no import circle runs (tests/test_game_structure.py holds the order as data and checks
it, imports inside functions included). Lowest first:

1. the world and its state: ``names``, ``sequence`` (8), ``standing``, ``world`` (the component
   data as typed objects), ``context`` (the state every rule works on), ``victory`` (19);
2. the land war's common rules: ``land`` (sides 2, stacking 4, control 5, weather 6), ``setup``
   (3), ``placing`` (counters onto the map, 11.5), ``combat_common`` (what combat and the air
   share: air superiority, 13.2);
3. diplomacy (9): ``vichy`` (9.4), ``dated`` (11.7, 11.8), ``diplomacy`` (neutrals, surrenders);
4. the sea and the air: ``seacontrol`` (12), ``air`` (13);
5. ``supply`` (7, 17.5): lines through the zones, by sea under sea control, to beachheads, so
   above the sea and the air (why it is not in ``land``);
6. combat's parts (15, 16): ``combat_odds``, ``combat_losses``, ``combat_retreat``, ``combat_moves``;
7. movement (8, 11, 14): ``movement``, ``naval``, ``transport``, ``partisans``;
8. the combat phase: ``combat``;
9. cards and replacements (10, 11, 17): ``cards``, ``supply_losses``, ``replacements``;
10. the phases and orders: ``phases``, ``phasetable``, ``orders``, ``checks`` (``pbem data
    check``), ``cases`` (the rule-case kit);
11. the views: ``describe``, ``text``, ``draw_base``, ``draw_panel``, ``stepmarks``, ``draw``;
12. the seam: ``game``, the plug-in the core finds (``GAME``).

No import reaches up a layer, not even one inside a function; an import inside a function
says why in a comment (most put off loading a module until a seam method needs it). The views
take the plug-in as an argument (``draw_map(..., game=)``) rather than import it."""
from __future__ import annotations

from .game import BlitzWar

GAME = BlitzWar()
