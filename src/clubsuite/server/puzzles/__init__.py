"""Puzzles on the server: the shipped sets served a position at a time, every attempt judged and rated here (the
page never holds an answer before it is given), the players' and the puzzles' ratings kept in the database."""
