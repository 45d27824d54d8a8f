"""The benchmark environments of North Star's CLUBS (docs/benchmark.md): each id frozen with its rules, its
deal set's seed and the hashes that pin it (the deal set, the rules trace, the observation). A change that moves a
hash is a new version: a new entry, the old one kept while the code still plays it."""

ENVS = (
    {
        "id": "clubs_northstar-3p-v1",
        "spec": "northstar(players=3)",
        "seed": 52004,
        "deals_sha256": "2f595a09c519d82dc0fecca91b96c0d07dcdc628532b76e1b3ebafd2810c8706",
        "rules_sha256": "e243d937c4d5986ea9e893e38756c8ca2d1c7bf9b053137b335e78fd5eade598",
        "observation_sha256": "acb9ddca6f4f69541a8485ce75633076d388c3188ee05d749cd749ecaeb0d6e0",
    },
    {
        "id": "clubs_northstar-4p-v1",
        "spec": "northstar(players=4)",
        "seed": 52005,
        "deals_sha256": "99f37ffd8f0590467288296adad914a54a13a21fc48a90b16b61876e399c5537",
        "rules_sha256": "6bc2f4b66a8a6c22a88e46bf65fd428895dcb008b1cac7c0988fd57139468e63",
        "observation_sha256": "8b172d947230ef36ff8002d81d0233638d019be717e4e2ac794312d1580d78a1",
    },
    {
        "id": "clubs_northstar-5p-v1",
        "spec": "northstar(players=5)",
        "seed": 52006,
        "deals_sha256": "98f5f0e76124ac31d852d055becbe12b15f3b4c88a80ca7988086f72afed5625",
        "rules_sha256": "b281a81cc4fecea63ac35b8f637d8df317c5ac31a864774e32fa1a11e02efc11",
        "observation_sha256": "cb503eecfd26c3393e0e97067792bfe96ee07143d1e9ae53a65e4bdbc2cbb1ca",
    },
    {
        "id": "clubs_northstar-2x2-v1",
        "spec": "northstar(players=4,teams=2x2)",
        "seed": 52007,
        "deals_sha256": "4e8aff418a482e6987ce49696e500e3292b783125a4aa97072b839b249f53ed2",
        "rules_sha256": "d1fde6661aafee46c2434693967b6e3b3b89e07d79f29c42682834ecc27cb927",
        "observation_sha256": "ce34c95261836d85e74747fae3018210b7606c67f215abc357b9b5f69c4d012c",
    },
)
