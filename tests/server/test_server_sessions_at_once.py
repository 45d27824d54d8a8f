"""Sessions and passwords changing at the same moment, on both back ends: a sign-in checked against the old password
opens no session once the password changed, and a sign-in that hashes its password again with today's settings
never undoes a change made meanwhile, nor signs the account out elsewhere."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from argon2 import PasswordHasher
from serverkit import in_own_loop
from sqlalchemy import select, update

from clubsuite.server.limits import HASH_LANES, HASH_MEMORY_LEAST, ServerLimits
from clubsuite.server.people.accounts import AccountRefused, Accounts
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import sessions, users
from clubsuite.server.store.handle import Database

LIMITS = dataclasses.replace(ServerLimits(), hash_passes=1, hash_memory=HASH_MEMORY_LEAST)
"""Quick hashing: what is tested is the order of writes, not the hash's cost."""


def run(store: Store, scenario: Any) -> Any:
    """``scenario(accounts)`` in a loop of its own, over ``store``'s accounts."""

    async def main() -> Any:
        accounts = Accounts(Database(store), LIMITS)
        try:
            return await scenario(accounts)
        finally:
            accounts.close()

    return in_own_loop(main)


def test_a_sign_in_checked_against_the_old_password_opens_no_session_after_the_password_changed(
    each_store: Store,
) -> None:
    """The sign-in's password check was under way (a slow hash) when the owner changed the password and so ended
    every session: the session that sign-in would open is refused, not left open with the old password."""

    async def scenario(accounts: Accounts) -> int:
        made = await accounts.sign_up("Ann", "first secret words")
        checked = await accounts.sign_in("Ann", "first secret words")  # checked; its session not written yet
        await accounts.set_password(made.id, "second secret words", keep=None)
        with pytest.raises(AccountRefused) as refused:
            await accounts.new_session(checked, "browser")
        assert refused.value.code == "bad_login"
        again = await accounts.sign_in("Ann", "second secret words")
        await accounts.new_session(again, "browser")
        rows = await accounts.database.read(select(sessions.c.user_id))
        return len(rows)

    assert run(each_store, scenario) == 1  # the new password's session only


def test_a_password_hashed_again_at_sign_in_keeps_a_change_made_meanwhile_and_the_other_sessions(
    each_store: Store,
) -> None:
    async def scenario(accounts: Accounts) -> None:
        made = await accounts.sign_up("Bea", "first secret words")
        other = await accounts.sign_in("Bea", "first secret words")
        await accounts.new_session(other, "phone")
        # The operator raised the hash's cost: the stored hash was made with older settings.
        accounts.hasher = PasswordHasher(time_cost=2, memory_cost=HASH_MEMORY_LEAST, parallelism=HASH_LANES)
        signed = await accounts.sign_in("Bea", "first secret words")  # hashed again: the phone stays signed in
        assert len(await accounts.database.read(select(sessions.c.public_id))) == 1
        await accounts.new_session(signed, "laptop")
        assert len(await accounts.database.read(select(sessions.c.public_id))) == 2
        # A change lands between a sign-in's check and its rehash: the rehash, which expects the hash it checked,
        # writes nothing, and the new password stays.
        await accounts.set_password(made.id, "second secret words", keep=None)
        current = (await accounts.database.read(select(users.c.password_hash)))[0].password_hash
        kept = await accounts._rehash(made.id, signed.checked or "", "first secret words")
        assert kept == signed.checked
        after = (await accounts.database.read(select(users.c.password_hash)))[0].password_hash
        assert after == current
        await accounts.sign_in("Bea", "second secret words")
        with pytest.raises(AccountRefused):
            await accounts.sign_in("Bea", "first secret words")

    run(each_store, scenario)


def test_a_passkey_sign_in_opens_its_session_without_a_password(each_store: Store) -> None:
    async def scenario(accounts: Accounts) -> None:
        made = await accounts.sign_up("Cal", "first secret words")
        await accounts.database.write(
            lambda conn: conn.execute(update(users).where(users.c.id == made.id).values(password_hash=None)),
        )
        await accounts.new_session(made, "browser")  # made (as a passkey's sign-in makes it) checked no password

    run(each_store, scenario)
