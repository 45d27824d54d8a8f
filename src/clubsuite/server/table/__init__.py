"""Tables in play: the live match, its seats and sockets, chat, the bots' turns, the wire protocol, replays."""
