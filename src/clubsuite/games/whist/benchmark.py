"""The benchmark environments of the whist group's Clubs (docs/benchmark.md): each id frozen with its rules, its
deal set's seed and the hashes that pin it (the deal set, the rules trace, the observation). A change that moves a
hash is a new version: a new entry, the old one kept while the code still plays it. A deal starts a whole match
here: a hand's points are not what a player plays for (CW-5), winning the match is."""

from clubsuite.coding import BenchmarkEntry

ENVS: tuple[BenchmarkEntry, ...] = (
    {
        "id": "clubs_whist-v1",
        "spec": "whist",
        "seed": 52001,
        "episode": "match",  # a seat wins at +11 or at -11 (CW-5): points a hand are not what its players play for
        "deals_sha256": "fb1e266b56826f2fdaab32612f7be23d31567301916b3685f59e26eaa68777c5",
        "rules_sha256": "1cc2cca19851c98a786dded1062934544437c157528ffb2b67901509b3bdf83f",
        "observation_sha256": "8d7959be2887473dfcfb4aecaffd68c17a1ff33a540fec3ff17168b8b746bb71",
        "opponents": {  # each reference level's choices on the frozen positions (rl/opponents.py)
            "random": "ac1a74ead3ea7c0d8bff0b320836341e3d722ecb17137f2f9a0b391626f88897",
            "easy": "01dcfa0a04a8cf0368b8f946a8229c2c1447b1bf7871bf044ef2089fa52df295",
            "normal": "582867eac829b6230602a1e14b31c070238ea57a885203ec50e7fd1bcec71fb2",
            "heuristic": "582867eac829b6230602a1e14b31c070238ea57a885203ec50e7fd1bcec71fb2",
            "hard": "bb4c204a7f65d8c9fe5672655178eceedba656f92d1ddd657d307e406c651088",
            "expert": "0e0681047b709edfd8b4ef814c4d5d0736ce32cf39816019c53e9ebb85d9833c",
        },
    },
)
