"""The frozen benchmark (``docs/benchmark.md``): versioned environments, each with a fixed set of deals checked by
its hash, and ``clubs evaluate``, which plays an agent against a bot level on those deals from every side of the
table and reports one paired result per deal with its 95% interval and the CPU each decision took."""
