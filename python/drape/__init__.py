"""drape: sew 2D sewing patterns and drape them on 3D bodies.

load_body(path) and load_pattern(path) read inputs; dress(body_path, pattern_path, ...)
runs the job of `drape dress` and returns a DressResult (numpy arrays, the report);
check(garment_path, body_path) counts intersections as `drape check --json`.
Bad input raises ValueError (malformed content) or OSError (unreadable file),
a failed simulation drape.SimulationError; messages name the file.

drape.batch runs many jobs from a manifest (`drape batch`, docs/BATCH.md); it is
imported on first use (`import drape.batch`).
"""
from ._drape import *  # noqa: F401,F403  (the C++ extension: python/*.cpp)
from ._drape import SimulationError

SimulationError.__module__ = "drape"
