"""The benchmark environments of the whist group's Clubs (docs/benchmark.md): each id frozen with its rules, its
deal set's seed and the hashes that pin it (the deal set, the rules trace, the observation). A change that moves a
hash is a new version: a new entry, the old one kept while the code still plays it."""

ENVS = (
    {
        "id": "clubs_whist-v1",
        "spec": "whist",
        "seed": 52001,
        "deals_sha256": "ff963126fe0c0dfdd565141e426a47ac8089947653fb33c3f24540e450ef45e4",
        "rules_sha256": "19f729cd6b3ed38b9dda132cf7e274566e9fa04c12f420db6b07b4a2b6c8c45f",
        "observation_sha256": "b4407083702ebcdb02f80de3e5f220105e58b3028f00ba276653a0c31d113b33",
    },
)
