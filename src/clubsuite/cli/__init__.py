"""The ``clubs`` command line: play, watch, simulate and replay."""
