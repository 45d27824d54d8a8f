"""The terminal user interface every game's screen builds on: the table, card rendering and colours."""
