"""BlitzWAR's standing orders: the keys a player may set and the values of ``--auto-decisions``.

A module of their own, so that the game's declaration (game.py, read by every ``pbem --help``)
does not import the combat rules and the world with them.
"""

STANDING_KEYS: dict[str, tuple[str, ...]] = {
    "losses": ("ask", "auto", "infantry-first", "armour-first"),
    "retreat": ("ask", "auto"),
    "advance": ("ask", "none", "all", "auto"),
    "german_defence": ("ask", "auto"),
    "naval_losses": ("ask", "auto"),        # 12.2: which fleet or U-boat takes a loss (naval.py)
}
AUTO_STANDING = {"losses": "auto", "retreat": "auto", "advance": "none", "german_defence": "auto", "naval_losses": "auto"}
