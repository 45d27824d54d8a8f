"""The benchmark environments of the partnership game (docs/benchmark.md): each id frozen with its rules, its
deal set's seed and the hashes that pin it (the deal set, the rules trace, the observation). A change that moves a
hash is a new version: a new entry, the old one kept while the code still plays it."""

ENVS = (
    {
        "id": "clubs_partnership-v1",
        "spec": "partnership",
        "seed": 52003,
        "deals_sha256": "1cac7bdf0a337a8ed0905ac9d4e87c26eb656f7a402bd712e58e3c1a9e48ec76",
        "rules_sha256": "97e9cd9c429f0407f0c1f8037fcc43fbe26fa6c05723e183c991c22b28985f33",
        "observation_sha256": "28d81a1278abeadffc443218708f04b8668146060cfd7550e0c4f8af519bfeb8",
    },
)
