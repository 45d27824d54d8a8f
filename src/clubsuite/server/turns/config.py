"""What the operator of ``clubs serve`` chooses for turn-based tables and their reminders (docs/server.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TurnConfig:
    """The turn-based tables' settings of one server process (every process of a site should be given the same)."""

    test_clock: bool = False
    """Read an offset of the turn clocks from the database (``clubs admin clock``): for tests that simulate days
    without waiting. Never on a real site: whoever can write the database could then run every clock out."""
    sweep_every: float = 15.0
    """Seconds between two looks for clocks that ran out, digests due and reminders to deliver."""
    park_after: float = 60.0
    """Seconds a turn-based table nobody is at stays in a process's memory before it is parked (kept in the
    database only, woken by the next request about it or by its clock)."""
    tables_per_account: int = 30
    """Turn-based tables an account may sit at whose match is not over."""
    vacation_days: int = 30
    """Days of vacation an account may take in any 365 days (every turn-based clock of theirs stops then)."""
    push_contact: str | None = None
    """The operator's contact (``mailto:`` or ``https:``) sent to push services with every Web Push: push is
    offered only when it is given."""
    push_hosts: tuple[str, ...] = ()
    """Push endpoints' origins (``https://push.example``) allowed besides the browsers' known push services."""
    smtp_host: str | None = None
    """The SMTP server e-mail goes through: e-mail digests are offered only when it is given."""
    smtp_port: int = 25
    smtp_starttls: bool = False
    smtp_user: str | None = None
    smtp_password: str | None = None
    """Read from the environment (``CLUBS_SMTP_PASSWORD``), never from a command line anyone can list."""
    mail_from: str = "clubsuite <clubs@localhost>"
    site_url: str = "http://localhost:8000"
    """The site's address as players reach it: the links in e-mails and pushes."""

    @property
    def push_on(self) -> bool:
        """Whether Web Push is offered."""
        return self.push_contact is not None

    @property
    def mail_on(self) -> bool:
        """Whether e-mail digests are offered."""
        return self.smtp_host is not None
