"""Search bots at a table: the lobby offers the levels, and a bot's search runs off the server's event loop."""

from __future__ import annotations

from serverkit import Client, ThreadServer, get, new_table, post


def test_the_lobby_offers_the_levels_first_in_every_game(server: ThreadServer) -> None:
    """``GET /games`` lists easy, normal, hard and expert before the bot kinds, for every game."""
    for game in get(server.base, "/games"):
        assert game["bots"][:4] == ["easy", "normal", "hard", "expert"]
        assert {"random", "heuristic", "pimc", "ismcts"} <= set(game["bots"])


def test_a_searching_bot_leaves_the_event_loop_free(server: ThreadServer) -> None:
    """While an ``expert`` bot searches (a second or so for its first decision), the server still answers: a ping
    sent during the search is answered before the bot's action is applied (the pong carries the version of the
    table, which the bot's action would have moved on)."""
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "expert"}, {"kind": "bot", "bot": "expert"}]
    table = new_table(server.base, "whist", seats)["id"]
    token = post(server.base, f"/tables/{table}/join", {"name": "p0"})["token"]
    c = Client(server.base, table, token)
    try:
        state = c.until(lambda m: m["type"] == "state")
        assert state["to_act"] == 1  # the first decision is the bot's (the dealer is seat 0)
        c.send({"type": "ping"})
        pong = c.until(lambda m: m["type"] == "pong")
        assert pong["version"] == state["version"]
        assert not any(m["type"] == "update" for m in c.messages)
        c.until(lambda m: m["type"] == "update")  # and the bot does act
    finally:
        c.close()
