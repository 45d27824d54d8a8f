"""The benchmark environments of North Star's CLUBS (docs/benchmark.md): each id frozen with its rules, its
deal set's seed and the hashes that pin it (the deal set, the rules trace, the observation). A change that moves a
hash is a new version: a new entry, the old one kept while the code still plays it."""

from clubsuite.coding import BenchmarkEntry

ENVS: tuple[BenchmarkEntry, ...] = (
    {
        "id": "clubs_northstar-3p-v1",
        "spec": "northstar(players=3)",
        "seed": 52004,
        "deals_sha256": "2f595a09c519d82dc0fecca91b96c0d07dcdc628532b76e1b3ebafd2810c8706",
        "rules_sha256": "35bf503f1abb203bb8d9f31556f223d186ec3c324a69ac9aa60ec4e67306b191",
        "observation_sha256": "04ae643a625900c6f1dee1a51e8026e457cac884994fdac273438dc088fdb06c",
    },
    {
        "id": "clubs_northstar-4p-v1",
        "spec": "northstar(players=4)",
        "seed": 52005,
        "deals_sha256": "99f37ffd8f0590467288296adad914a54a13a21fc48a90b16b61876e399c5537",
        "rules_sha256": "261a1fd384322ff149a464af6ab47598564900d7ad1f6d0a11de6a1fd964545f",
        "observation_sha256": "ce1a7a192f13b731175fa9406c158df4e456db1c853c6e482078143503321185",
    },
    {
        "id": "clubs_northstar-5p-v1",
        "spec": "northstar(players=5)",
        "seed": 52006,
        "deals_sha256": "98f5f0e76124ac31d852d055becbe12b15f3b4c88a80ca7988086f72afed5625",
        "rules_sha256": "c2e75a41db528f70058a03cf149f11e22132dfa96c3767ffe6535f57e3ee2d53",
        "observation_sha256": "daedb7ddbc1b52b9be5294252a0ae8b5a189754d91ecdd029f3aa9d7ea5f29f0",
    },
    {
        "id": "clubs_northstar-2x2-v1",
        "spec": "northstar(players=4,teams=2x2)",
        "seed": 52007,
        "deals_sha256": "4e8aff418a482e6987ce49696e500e3292b783125a4aa97072b839b249f53ed2",
        "rules_sha256": "6e5787c6e457da42efaa85855f4ded18aecc472c56021799d4eecbd972c19091",
        "observation_sha256": "23a2ece4768d201755b3e03f688296ec1f33f136a621db1db15141ed3233a8a3",
    },
)
