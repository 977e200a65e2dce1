"""pbem as a mail robot (issue 34): ``pbem judge`` serves campaigns from a Maildir.

- :mod:`.config`: the judge's configuration file (``schemas/judge.schema.json``);
- :mod:`.mailbox`: the Maildir inbox (claiming a message exactly once), the outbox sender;
- :mod:`.journal`: what the judge did, kept with each campaign (restarts go on from there);
- :mod:`.judge`: the loop: each message matched, checked, answered, adjudicated;
- :mod:`.steps`: adjudicating and mailing a step (the path of ``pbem adjudicate --mail``);
- :mod:`.deadlines`: reminders, notices and the missing-orders default, with the clock given;
- :mod:`.reveals`: chain links by mail (hash-chain campaigns);
- :mod:`.status`: the answer to a ``status`` mail;
- :mod:`.replies`: the judge's own mails;
- :mod:`.command`: the ``pbem judge`` command.
"""
