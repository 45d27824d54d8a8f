"""The benchmark environments of Free Clubs (docs/benchmark.md): each id frozen with its rules, its
deal set's seed and the hashes that pin it (the deal set, the rules trace, the observation). A change that moves a
hash is a new version: a new entry, the old one kept while the code still plays it."""

ENVS = (
    {
        "id": "clubs_free-v1",
        "spec": "free",
        "seed": 52002,
        "deals_sha256": "33ad1df07f3904944dea1270ebc1d3463052179af36b7a211116186f9e00c786",
        "rules_sha256": "3329cf7be005b91d2bf372a1e88489c51a2929917d236566df0a2a55e1c4a5b8",
        "observation_sha256": "e0cca097e7c553fc4a7d2712d01261669b9bfbd00f336e8388d35c6240793862",
    },
)
