"""pbem as a mail robot (issue 34): ``pbem judge`` serves campaigns from a Maildir (filled from
an IMAP account, and sent through SMTP, when the configuration names them); ``pbem agent``
answers a player's chain-link requests.

- :mod:`.config`: the judge's configuration file (``schemas/judge.schema.json``);
- :mod:`.mailbox`: the Maildir inbox (claiming a message exactly once), the outbox sender;
- :mod:`.remote`: IMAP in (once per UID) and SMTP out (once per mail), passwords;
- :mod:`.journal`: what the judge did, kept with each campaign (restarts go on from there);
- :mod:`.judge`: the loop: each message matched, checked, answered, adjudicated;
- :mod:`.steps`: adjudicating and mailing a step (the path of ``pbem adjudicate --mail``);
- :mod:`.deadlines`: reminders, notices and the missing-orders default, with the clock given;
- :mod:`.reveals`: chain links by mail (hash-chain campaigns);
- :mod:`.status`: the answer to a ``status`` mail;
- :mod:`.replies`: the judge's own mails;
- :mod:`.agent`: a player's agent (link requests answered by itself);
- :mod:`.command`: the ``pbem judge`` and ``pbem agent`` commands.
"""
