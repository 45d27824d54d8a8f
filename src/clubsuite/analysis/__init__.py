"""Analysis of recorded games: the double-dummy table of a position (``clubs solve``) and the post-game review
(``clubs review``)."""
