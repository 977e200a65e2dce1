"""BlitzWAR (Víctor Catalá; Ludic 2006; Command Magazine Japan Vol. 80 as 『ヒトラー電撃戦』).

One module per rule chapter: ``world`` (the component data as typed objects), ``checks``
(``pbem data check``), ``setup`` (19), ``sequence`` and ``phases`` (8), ``land`` (stacking 4,
control 5, weather 6, supply 7), ``movement`` (15), ``combat`` (16, 17), ``orders``, ``text``
and ``draw`` (templates, reports, the map picture); ``game`` is the plug-in the core finds
(``GAME``); ``air`` (13: the air phase, interception by mail, bombing, the Battle of Britain,
strategic air movement). Naval and sea transport (12, 14) pass for now."""
from __future__ import annotations

from .game import BlitzWar

GAME = BlitzWar()
