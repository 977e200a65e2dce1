"""Dice without a referee and who sent a file: `pbem chain`, `key`, `sign`."""
from __future__ import annotations

import os
from pathlib import Path

import click

from .app import main
from .common import (
    EXIT_HELP,
    _echo,
    _refuse_existing,
    _sign_if,
    _warn_secret_given,
    _write_own_file,
    _write_secret,
)
from .gamehelp import _GameHelpOption, _help_role


@main.group("chain")
def chain_grp():
    """Dice without a referee: hash chains.

    Each player makes a secret chain (`pbem chain new`) and gives only its head to `pbem new --dice
    chain --commit ROLE=HEAD`. Where orders (or an answer) roll a die, `pbem adjudicate`
    archives them and asks every player for the next link of their chain; each reveals it for
    those archived orders (`pbem chain reveal`), and `pbem adjudicate --reveal ...` checks each
    link against the last and derives the dice from all of them, so nobody can preview or bias
    a die. A campaign with a missing-orders default names a witness (`pbem new --witness
    NAME=HEAD`, his chain made with `pbem chain new --player witness`): where a step carried out
    without an absent player rolls a die, his link is asked for with the present players'.
    """


@chain_grp.command("new", epilog=EXIT_HELP)
@click.option("--player", "-p", required=True, cls=_GameHelpOption, help="Your role in the campaign.",
              help_fn=_help_role("Your role in the campaign", "."))
@click.option("--length", default=1000, show_default=True, help="Number of links: one is spent each time pbem asks for links (a step whose files roll dice, again after a decision in mid-phase).")
@click.option("--output", "-o", required=True, type=click.Path(path_type=Path), help="Your SECRET chain file (never overwritten).")
def chain_new_cmd(player, length, output):
    """Make your secret hash chain.

    Prints its head: the commitment to give the others."""
    from ..core.chain import CHAIN_SCHEMA, new_chain
    from ..core.yamlio import dump_yaml
    _refuse_existing([output], force_hint=False)   # your secret chain: replacing it loses the chain you committed to
    seed, head = new_chain(length)
    doc = {"schema": CHAIN_SCHEMA, "player": player, "length": length, "seed": seed, "head": head}
    _write_secret(output, dump_yaml(doc, header="pbem hash chain: SECRET - keep it on your own machine; publish only the head"))
    _echo(f"wrote {output} (secret)")
    _echo(f"head (publish it): {head}")


@chain_grp.command("reveal", epilog=EXIT_HELP)
@click.argument("chain_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("state", metavar="CAMPAIGN|MAIL", type=click.Path(exists=True, path_type=Path))
@click.option("--orders", "orders_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Only for campaigns started before links were asked for archived orders: the order file this reveal answers (its sha256 is bound into the reveal).")
@click.option("--output", "-o", required=True, type=click.Path(path_type=Path), help="The reveal file to send (an existing file only with --force).")
@click.option("--force", is_flag=True, help="Replace the reveal file if it exists (your own copy; the same inputs give the same reveal).")
@click.option("--key", "key_file", envvar="PBEM_KEY", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Your signing key (`pbem key new`; env PBEM_KEY): the reveal is signed.")
def chain_reveal_cmd(chain_file, state, orders_file, output, force, key_file):
    """Reveal your next link for archived orders.

    CAMPAIGN|MAIL is your own copy of the campaign, or the mail (.eml) of `pbem adjudicate --mail`
    that asks for your link: when a step archived orders whose dice need links (the report says so,
    the state awaits `links`), this writes your next link bound to those orders and to the
    archive's head (the mail's `Archive head after step NNN`). A link is revealed once: your chain file's `.revealed`
    record refuses to reveal the same link for anything else."""
    from ..core.chain import load_chain_file
    from ..core.errors import ExitCode, Issue, PbemError
    if not force:
        _refuse_existing([output], force_hint=True)
    camp, st, from_mail, mail_head = _reveal_source(state)
    doc = load_chain_file(chain_file)
    d = st["dice"]
    if d.get("mode") != "chain":
        raise PbemError([Issue("DICE-REVEAL-UNNEEDED", "this campaign's dice come from the game master's key, not from hash chains")], ExitCode.USAGE)
    from ..core.chain import chain_heads
    if chain_heads(d).get(doc["player"]) != doc["head"]:
        raise PbemError([Issue("DICE-REVEAL-PLAYER", f"{chain_file} is not the chain the {doc['player']} player committed to in this campaign",
                               file=str(chain_file))])
    if d["used"] + 1 > doc["length"]:
        raise PbemError([Issue("DICE-CHAIN-EXHAUSTED", f"the chain has {doc['length']} links, all used")])
    if d.get("request") or d.get("protocol", 1) >= 2:
        _reveal_requested(chain_file, doc, camp, st, from_mail, mail_head, output, force, key_file)
    else:
        _reveal_for_orders(doc, camp, st, orders_file, output, force, key_file)


def _reveal_source(state):
    """CAMPAIGN|MAIL of `pbem chain reveal`: (campaign or None, state, whether a mail, the
    archive head the mail names or None)."""
    from ..core.campaign import Campaign, load_state_file
    if Path(state).is_dir():
        camp = Campaign(state)
        return camp, camp.current()[1], False, None
    from ..core.mail import read_mail, state_of_mail
    if read_mail(Path(state)) is not None:
        st, mail_head = state_of_mail(Path(state))
        return None, st, True, mail_head
    return None, load_state_file(state)[0], False, None


def _reveal_requested(chain_file, doc, camp, st, from_mail, mail_head, output, force, key_file) -> None:
    """The link asked for the files archived in the state's step, bound to the archive's head."""
    from ..core.chain import make_reveal
    from ..core.errors import ExitCode, Issue, PbemError
    d = st["dice"]
    if not d.get("request"):
        raise PbemError([Issue("DICE-REVEAL-EARLY", "nothing awaits your link: pbem asks for links only after it archived orders whose dice need them",
                               hint="reveal when the report (or `pbem show`) says the step waits for every player's chain link")], ExitCode.MISMATCH)
    if camp is None and mail_head is None:
        why = ("the message names no archive head after this step" if from_mail
               else "not a state file")
        raise PbemError([Issue("USAGE-CAMPAIGN", f"give your copy of the campaign folder or the mail of `pbem adjudicate --mail` that asks for your link, {why}: the reveal names the archive's head",
                               hint=f"pbem chain reveal {chain_file} CAMPAIGN|MAIL -o {output}")], ExitCode.USAGE)
    if camp is not None:
        from ..core.archive import head as archive_head
        found = archive_head(camp.root, camp.manifest["id"], st["step"])
        if found is None:   # links are asked for after a step archived orders: its folder is gone
            raise PbemError([Issue("USAGE-CAMPAIGN", f"{camp.root} has no archived step: the reveal names the archive head after step {st['step']:03d}")],
                            ExitCode.USAGE)
        head = found[1]
    else:
        head = mail_head
    digest = d["request"]["orders"]
    if doc["player"] not in (d["request"].get("players") or d["heads"]):
        if doc["player"] == "witness":
            raise PbemError([Issue("DICE-REVEAL-UNNEEDED", "the witness's link is asked for only where missing orders roll a die: not for these files",
                                   hint="keep it for the next request that names the witness")], ExitCode.USAGE)
        raise PbemError([Issue("DICE-REVEAL-UNNEEDED", f"your link is not asked for: these dice are keyed by the links of {', '.join(d['request']['players'])} (the players present)",
                               hint="keep it for the next request")], ExitCode.USAGE)
    _spend_link(chain_file, d["used"] + 1, digest, head)
    _write_own_file(output, _sign_if(make_reveal(doc, st, digest, head), key_file, doc["player"]), force=force)
    _echo(f"wrote {output}: link {d['used'] + 1} of the {doc['player']} player for the files archived in step {st['step']:03d} (archive head {head[:16]}...)")


def _reveal_for_orders(doc, camp, st, orders_file, output, force, key_file) -> None:
    """Campaigns of the first chain protocol: the link is revealed with the orders it keys."""
    from ..core.canon import sha256_hex
    from ..core.chain import make_reveal
    from ..core.errors import ExitCode, Issue, PbemError
    from ..core.files import read_bytes_limited
    if orders_file is None:
        raise PbemError([Issue("USAGE-ORDERS", "this campaign (started before links were asked for archived orders) needs --orders FILE")], ExitCode.USAGE)
    digest = sha256_hex(read_bytes_limited(orders_file, 1_000_000))
    if st.get("received") or st.get("pending"):
        # Several players' orders for one phase: the dice are keyed on all of them
        # (pbem.core.kernel.orders_digest), read from the campaign's archive.
        from ..core.campaign import load_order_file
        from ..core.step import new_dice_digest, received_files
        if camp is None:
            raise PbemError([Issue("USAGE-CAMPAIGN", "this phase has orders received from other players: give the campaign folder, not a state file")],
                            ExitCode.USAGE)
        keyed = new_dice_digest(st, [load_order_file(orders_file)], received_files(camp, st), False)
        if keyed is None:
            raise PbemError([Issue("DICE-REVEAL-UNNEEDED", "these orders roll no new dice (a decision answer, or other players' orders are still awaited): no reveal is needed now")],
                            ExitCode.USAGE)
        digest = keyed
    _write_own_file(output, _sign_if(make_reveal(doc, st, digest), key_file, doc["player"]), force=force)
    _echo(f"wrote {output}: link {st['dice']['used'] + 1} of the {doc['player']} player for orders {digest[:16]}...")


def _spend_link(chain_file: Path, index: int, digest: str, head: str) -> None:
    """Record, next to the secret chain file, that link ``index`` is revealed for ``digest`` in
    the archive with ``head``; refuse to reveal it for anything else (DICE-LINK-SPENT): a link
    once shown keys one set of archived orders only."""
    from ..core.errors import Issue, PbemError
    rec = Path(str(chain_file) + ".revealed")
    entry = f"{index} {digest} {head}"
    lines = rec.read_text("ascii").splitlines() if rec.is_file() else []
    for ln in lines:
        parts = ln.split()
        if parts and parts[0] == str(index):
            if ln.strip() == entry:
                return
            raise PbemError([Issue("DICE-LINK-SPENT", f"link {index} of your chain was revealed already for other orders or another archive ({parts[1][:16]}..., head {parts[2][:16]}...): it is never revealed twice",
                                   file=str(rec), hint="the archive you were shown differs from the one you revealed for: compare heads with `pbem head CAMPAIGN --check`")])
    with open(rec, "a", encoding="ascii") as f:
        f.write(entry + "\n")
    os.chmod(rec, 0o600)


@main.group("key")
def key_grp():
    """Signing keys: who sent a file.

    Each player makes a key pair once (`pbem key new`) and gives the public key to the campaign
    (`pbem new --player-key ROLE=PUBLIC`, or later `pbem key add`). Then every order, answer and
    reveal file of that player must be signed (`pbem sign FILE --key ROLE.key`): a file signed by
    another player, changed after signing or cut short is refused, on arrival and by replay."""


@key_grp.command("new", epilog=EXIT_HELP)
@click.option("--player", "-p", required=True, cls=_GameHelpOption, help="Your role.", help_fn=_help_role("Your role", "."))
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Your SECRET key file (mode 0600, never overwritten).")
def key_new_cmd(player, output):
    """Make your signing key pair.

    Writes the private key to OUTPUT (readable by you only) and prints the public key: give it
    to the game master (or to `pbem new --player-key ROLE=PUBLIC`)."""
    from ..core.signing import key_file_text, new_key_pair
    _refuse_existing([output], force_hint=False)   # replacing a key loses the one the campaign knows
    priv, pub = new_key_pair()
    _write_secret(output, key_file_text(player, priv))
    _echo(f"wrote {output} (secret: mode 0600; keep it on your own machine)")
    _echo(f"public key of the {player} player (publish it): {pub}")


@key_grp.command("add", epilog=EXIT_HELP)
@click.argument("campaign", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("player")
@click.argument("public")
def key_add_cmd(campaign, player, public):
    """Add a player's public key to a campaign.

    PUBLIC is the key `pbem key new` printed (64 hex digits) or that player's key file. From
    now on every file of PLAYER must be signed; a key once set is never replaced."""
    from ..core.campaign import Campaign
    from ..core.errors import ExitCode, Issue, PbemError
    from ..core.signing import public_from_spec
    camp = Campaign(campaign)
    if player not in camp.manifest["players"]:
        raise PbemError([Issue("USAGE-PLAYER", f"no player {player!r} in this campaign", hint=", ".join(camp.manifest["players"]))], ExitCode.USAGE)
    pub = public_from_spec(public, player)
    _warn_secret_given(public, f"the {player} player's SECRET signing key")
    old = camp.manifest["players"][player].get("key")
    from ..core.signing import duplicate_key_problems
    others = {p: (v or {}).get("key") for p, v in camp.manifest["players"].items() if p != player}
    dup = duplicate_key_problems({**others, player: pub})
    if dup:
        raise PbemError(dup, ExitCode.INVALID)
    if old == pub:
        _echo(f"the {player} player's key is already {pub}")
        return
    if old:
        raise PbemError([Issue("KEY-EXISTS", f"the {player} player already has the key {old}; a key is never replaced",
                               hint="a lost key: start a new campaign from the current state, or agree with every player")])
    camp.set_player_key(player, pub)
    _echo(f"added the {player} player's public key {pub} to {campaign}/campaign.yaml: their files must be signed from now on")


@main.command("sign", epilog=EXIT_HELP)
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--key", "key_file", envvar="PBEM_KEY", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Your key file from `pbem key new` (env PBEM_KEY).")
def sign_cmd(files, key_file):
    """Sign your order, answer or reveal files.

    Appends the line `# pbem-signature: ed25519 ROLE ...` (a YAML comment; an earlier signature
    line is replaced). Sign the final file: any change afterwards, even a cut, is refused. A
    file that names another player than the key's is refused."""
    from ..core.errors import Issue, PbemError
    from ..core.files import read_bytes_limited
    from ..core.signing import load_key_file, sign
    from ..core.yamlio import load_yaml
    key = load_key_file(key_file)
    for f in files:
        raw = read_bytes_limited(f, 1_000_000)
        doc = load_yaml(raw, str(f)).data
        who = doc.get("player") if isinstance(doc, dict) else None
        if who != key["player"]:
            raise PbemError([Issue("SIG-WRONG-PLAYER", f"{f} says player {who!r}; the key is the {key['player']} player's",
                                   file=str(f), hint="sign only your own files")])
        _write_own_file(f, sign(raw, key["player"], key["private"]), force=True)
        _echo(f"signed {f} as the {key['player']} player")
