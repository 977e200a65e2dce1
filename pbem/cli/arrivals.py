"""What `validate` and `adjudicate` check of the files that arrive, beyond the rules: the
sender of an e-mail and the signature of a signed player's file."""
from __future__ import annotations

from pathlib import Path


def _signature_warnings(camp, orders, state: dict | None = None) -> list:
    """`pbem validate CAMPAIGN|STATE FILE`: the signature problems adjudicate will refuse, early
    (an order file of a player with a key must be signed by that player). The keys: those
    archived at step 0 (campaign.yaml adds only keys given later), and those the state carries
    (campaigns started since issue 29): a player with the state of a mail checks his own file."""
    from ..core.signing import state_keys, trusted_keys
    keys = {**state_keys(state or {}), **(trusted_keys(camp) if camp is not None else {})}
    if not keys:
        return []      # nobody signs: nothing to check, nothing to import
    from ..core.errors import PbemError
    from ..core.files import read_bytes_limited
    from ..core.orders import expand_mail  # (the e-mail machinery only for an e-mail)
    from ..core.signing import check
    from ..core.yamlio import load_yaml
    out: list = []
    # an e-mail is checked as the order files it carries (its own problems: validate_files)
    for f in expand_mail(list(orders), []):
        try:
            name, raw = (f if isinstance(f, tuple) else (str(f), read_bytes_limited(Path(f), 1_000_000)))
            doc = load_yaml(raw, name).data
        except PbemError:
            continue   # validate_files said what is wrong with it
        if isinstance(doc, dict):
            out += check(raw, name, doc.get("player"), keys, "order file")[0]
    return out


def _campaign_of(state) -> Path | None:
    """The campaign folder of STATE: itself, or CAMPAIGN for a state file CAMPAIGN/steps/NNN/x.yaml."""
    p = Path(state)
    if p.is_dir():
        return p
    up = p.absolute().parent.parent.parent
    if p.absolute().parent.parent.name == "steps" and (up / "campaign.yaml").is_file():
        return up
    return None


def _sender_issues(campaign, orders, any_sender: bool) -> list:
    """MAIL-FROM for the e-mails among ORDERS not sent from their player's address in the
    campaign's campaign.yaml (none without a campaign, or without e-mails among ORDERS)."""
    if campaign is None:
        return []
    from ..core.errors import PbemError
    from ..core.mailsniff import MAIL_SUFFIXES, read_mail
    mails = []
    for o in orders:
        try:
            if Path(o).suffix.lower() in MAIL_SUFFIXES or read_mail(Path(o)) is not None:
                mails.append(o)
        except PbemError:
            continue
    if not mails:
        return []
    from ..core.campaign import Campaign
    from ..core.mail import check_senders
    return check_senders(mails, Campaign(campaign).manifest, any_sender=any_sender)
