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
    },
)
