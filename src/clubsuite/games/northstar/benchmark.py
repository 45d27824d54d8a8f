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
        "opponents": {  # each reference level's choices on the frozen positions (rl/opponents.py)
            "random": "0a85253f5cf739d300a6e0ba4ca6a080318b1dd5af9b8ed34c28a4a57ba341e0",
            "easy": "05bfaa1b81de799f88025ba2a462d83cf22bbc4e3d3a86537565e660cb61cf7e",
            "normal": "6c9120ff775bac33da649a0c679544d11dd2db281da233c9adbb229179186f4f",
            "heuristic": "6c9120ff775bac33da649a0c679544d11dd2db281da233c9adbb229179186f4f",
            "hard": "f5531eb3ceadbbe668c5cf8e521bfe7353bf09962f1195d73fd3860ca24b0ed2",
            "expert": "0f97dd5b7d1064e6d948d807e6825e2e27925ea07eb329eec09ffcf0c7741e8c",
        },
    },
    {
        "id": "clubs_northstar-4p-v1",
        "spec": "northstar(players=4)",
        "seed": 52005,
        "deals_sha256": "99f37ffd8f0590467288296adad914a54a13a21fc48a90b16b61876e399c5537",
        "rules_sha256": "261a1fd384322ff149a464af6ab47598564900d7ad1f6d0a11de6a1fd964545f",
        "observation_sha256": "ce1a7a192f13b731175fa9406c158df4e456db1c853c6e482078143503321185",
        "opponents": {  # each reference level's choices on the frozen positions (rl/opponents.py)
            "random": "cdd73098ffab3405bdb9b010a7dee36b76fe6a928c9c4ac93f4360a53bb09a4a",
            "easy": "a5e99e9bad180af0b5617ac89107a1e110555d2389e9c011b4ef28ba76c1d5d7",
            "normal": "e18b1b6b74f70229e96715419b7525fb4fb810817008139d4f642a8bae6e5d83",
            "heuristic": "e18b1b6b74f70229e96715419b7525fb4fb810817008139d4f642a8bae6e5d83",
            "hard": "9871fd554140f5566a176e38798dc843d9b93a39e6715a93c76c5be87e49a882",
            "expert": "40c6f213e71407b5bce5c57e64df5858b5f8094c44e7841f4cd0f390382482ae",
        },
    },
    {
        "id": "clubs_northstar-5p-v1",
        "spec": "northstar(players=5)",
        "seed": 52006,
        "deals_sha256": "98f5f0e76124ac31d852d055becbe12b15f3b4c88a80ca7988086f72afed5625",
        "rules_sha256": "c2e75a41db528f70058a03cf149f11e22132dfa96c3767ffe6535f57e3ee2d53",
        "observation_sha256": "daedb7ddbc1b52b9be5294252a0ae8b5a189754d91ecdd029f3aa9d7ea5f29f0",
        "opponents": {  # each reference level's choices on the frozen positions (rl/opponents.py)
            "random": "9249b01877d415246472deabb277ca3a8018069ed403381574587ec574a0d1b3",
            "easy": "1c38eef8d6d92b7e962d3335ed0b04a9a5af4e56c8b8f2611cff2c16a18fc5b6",
            "normal": "b6b2abdcf23ea12d10ebe085555d8057929b27dbb4a3d7cd4ecc23cf6cd8eb64",
            "heuristic": "b6b2abdcf23ea12d10ebe085555d8057929b27dbb4a3d7cd4ecc23cf6cd8eb64",
            "hard": "1e8bcd3857388b668809be9585b247f4870f9c60ce223f89592e96956722f542",
            "expert": "0819b8434f96b80f87f18b05d776c03a56e3340c2a12a6aa8ca38c7b77b2081f",
        },
    },
    {
        "id": "clubs_northstar-2x2-v1",
        "spec": "northstar(players=4,teams=2x2)",
        "seed": 52007,
        "deals_sha256": "4e8aff418a482e6987ce49696e500e3292b783125a4aa97072b839b249f53ed2",
        "rules_sha256": "6e5787c6e457da42efaa85855f4ded18aecc472c56021799d4eecbd972c19091",
        "observation_sha256": "23a2ece4768d201755b3e03f688296ec1f33f136a621db1db15141ed3233a8a3",
        "opponents": {  # each reference level's choices on the frozen positions (rl/opponents.py)
            "random": "b3ef8ca6ed66174167cd610ab1920c153e80738a2d01ec7c6633909891062968",
            "easy": "b3dce253553d8bf2e6759ee58af3896987bf861ef53a4b5b25046697852db740",
            "normal": "a663beed314c6864eaffffec70d29eb36c9ab3a8af93aa80ce352941ca294a9a",
            "heuristic": "a663beed314c6864eaffffec70d29eb36c9ab3a8af93aa80ce352941ca294a9a",
            "hard": "2244ffa15bf2cacdda124d5f5c39c3a532f47fd9189f1af238e4ed3813720f08",
            "expert": "56dbfa487d521c62bf967bd9593f5cd413ccb8611c2fc388a80e79608b2fef06",
        },
    },
)
