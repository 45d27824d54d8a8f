"""Who plays: accounts, sessions and passkeys, ratings, and a finished match's results."""
