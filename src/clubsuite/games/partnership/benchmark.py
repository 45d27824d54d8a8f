"""The benchmark environments of the partnership game (docs/benchmark.md): each id frozen with its rules, its
deal set's seed and the hashes that pin it (the deal set, the rules trace, the observation). A change that moves a
hash is a new version: a new entry, the old one kept while the code still plays it."""

from clubsuite.coding import BenchmarkEntry

ENVS: tuple[BenchmarkEntry, ...] = (
    {
        "id": "clubs_partnership-v1",
        "spec": "partnership",
        "seed": 52003,
        "deals_sha256": "1cac7bdf0a337a8ed0905ac9d4e87c26eb656f7a402bd712e58e3c1a9e48ec76",
        "rules_sha256": "dc214bc114eff944f16593f849745da8942bc1cbc00380925159be3f772fa69d",
        "observation_sha256": "7e671523eb2cb55cf5349dcfd56c9619c192ac10dad8340b80d46158c0f632f0",
        "opponents": {  # each reference level's choices on the frozen positions (rl/opponents.py)
            "random": "9be97d78de8fa14eb3696eaf5dbdd381a036cd0968960ad63f697ef97a87556b",
            "easy": "74ce1d1389981eb68b203291890122c1e70a68c1c262e3354ce62ece8b33151f",
            "normal": "3595c4b38b15d8d238a51cadba994155aefe392afd7589a55b609102033af1a8",
            "heuristic": "3595c4b38b15d8d238a51cadba994155aefe392afd7589a55b609102033af1a8",
            "hard": "47968ada38f3e4938e6b94c6cf78889a671310f26ea1dfadf6c80d9bad8ad9e7",
            "expert": "2267e892885e58322cd068380bfe4691d14aa95238284506cda91c55ff25e07d",
        },
    },
)
