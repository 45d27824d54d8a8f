"""The online game server: tables, seats, bots and the durable action log (``clubs serve``)."""
