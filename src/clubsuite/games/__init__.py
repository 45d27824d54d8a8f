"""One package per game: rules options, state machine and scoring; pure, no I/O, no global randomness."""
