"""The frozen benchmark's evaluation (``docs/benchmark.md``): ``clubs evaluate`` plays an agent against a bot level
on an environment's deals from every side of the table and reports one paired result per deal with its 95% interval
and the CPU each decision took. The environments themselves (versioned, each with a fixed set of deals checked by
its hash), the agents and the observation's hash are the learning interfaces' (:mod:`clubsuite.rl.benchmarks`,
:mod:`clubsuite.rl.agents`, :mod:`clubsuite.rl.observation`), which the imitation learning reads too."""
