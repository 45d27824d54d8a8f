"""Accounts' name keys made again with the one name key of accounts, seats and club nights
(:func:`clubsuite.server.tokens.name_key`: case folded first, marks, spaces and a name's punctuation dropped).

The keys were made by an earlier reading that replaced the plain look-alikes before folding case, so that ``Alice``
and ``ALICE`` had two keys, and two accounts. Every live account's key is made again; where two accounts now share
one, none is lost: the oldest (by ``created_at``, then ``id``) keeps the plain key, and each later one gets the key,
``#`` and its id, a key no name can have (a key never holds ``#``), so that no new account can take that name and
the later account still signs in under its own exact name (``Accounts.sign_in`` looks for the exact name first).
Going back makes the earlier keys again, set apart the same way where they clash.

The new keys come from the code's own ``name_key``: a database brought up to date gets the keys the code it runs
reads. Should the key change again, a new revision makes the keys again as this one does.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op
from confusable_homoglyphs import confusables

from clubsuite.server.tokens import name_key

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_users = sa.table(
    "users",
    sa.column("id", sa.Text),
    sa.column("name", sa.Text),
    sa.column("name_key", sa.Text),
    sa.column("created_at", sa.Float),
    sa.column("deleted_at", sa.Float),
)


def upgrade() -> None:
    """Make every live account's name key with the one name key."""
    _rekey(name_key)


def downgrade() -> None:
    """Make the keys the earlier reading made (what revision 0006's code looks accounts up by)."""
    _rekey(_earlier_key)


def _rekey(key_of: Callable[[str], str]) -> None:
    """Every live account's key made by ``key_of``, the oldest first; an account whose key an older one holds gets
    the key, ``#`` and its id. The keys are cleared first, so that no new key meets an old one not yet made again
    (the column is unique)."""
    conn = op.get_bind()
    live = conn.execute(
        sa.select(_users.c.id, _users.c.name)
        .where(_users.c.deleted_at.is_(None))
        .order_by(_users.c.created_at, _users.c.id)
    ).all()
    conn.execute(sa.update(_users).where(_users.c.deleted_at.is_(None)).values(name_key=None))
    taken: set[str] = set()
    for user_id, name in live:
        key = key_of(name)
        if key in taken:
            key = f"{key}#{user_id}"
        taken.add(key)
        conn.execute(sa.update(_users).where(_users.c.id == user_id).values(name_key=key))


def _earlier_key(name: str) -> str:
    """The name key as revision 0006's code made it, frozen here: look-alike letters of other alphabets read as
    Latin, then the plain look-alikes (before case was folded), then case folded."""
    out = []
    for ch in unicodedata.normalize("NFKC", name):
        found = confusables.is_confusable(ch, preferred_aliases=["latin"]) if not ch.isascii() else False
        if isinstance(found, list) and found:
            latin = [g["c"] for g in found[0]["homoglyphs"] if g["c"].isascii()]
            ch = latin[0] if latin else ch
        out.append(ch)
    text = "".join(out)
    for alike, read_as in (("rn", "m"), ("vv", "w"), ("I", "l"), ("1", "l"), ("|", "l"), ("0", "o")):
        text = text.replace(alike, read_as)
    return text.casefold()
