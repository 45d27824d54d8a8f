"""Learned policies: positions labelled by a search bot, a small network trained on them by imitation, and the
weights the ``learned`` bot plays."""
