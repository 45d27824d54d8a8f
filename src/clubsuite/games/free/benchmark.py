"""The benchmark environments of Free Clubs (docs/benchmark.md): each id frozen with its rules, its
deal set's seed and the hashes that pin it (the deal set, the rules trace, the observation). A change that moves a
hash is a new version: a new entry, the old one kept while the code still plays it."""

from clubsuite.coding import BenchmarkEntry

ENVS: tuple[BenchmarkEntry, ...] = (
    {
        "id": "clubs_free-v1",
        "spec": "free",
        "seed": 52002,
        "deals_sha256": "33ad1df07f3904944dea1270ebc1d3463052179af36b7a211116186f9e00c786",
        "rules_sha256": "02f2b273f7735ebeb9b6784b139909e9405f726956820896053208803bf11c74",
        "observation_sha256": "0ea1bd9f18e020b8d4c7eb01ff2820e897ff6dc0e80a611afaec4a09484ddb7f",
        "opponents": {  # each reference level's choices on the frozen positions (rl/opponents.py)
            "random": "42a6aba503155718165de6bef7efe4fdf22fab40a80fb5d38004395ab4c98616",
            "easy": "dd0d095b7cdf6c3ef903173df034245c0da9088badadaac2f77b183fdb5b5d06",
            "normal": "1c4425e977ddabefb7eda9a239bd8e95b34a30cad28bb00fc76eebfbb39060af",
            "heuristic": "1c4425e977ddabefb7eda9a239bd8e95b34a30cad28bb00fc76eebfbb39060af",
            "hard": "a9526f754ad5a88aa14eeff03221faf34750b9aa9d13dd0d1686da0ac1b68e48",
            "expert": "14c3308eaef4b31b8de94665e60b670455f9e47c086b93907df998655dd702ad",
        },
    },
)
