"""Seeded sampling of a data set's jobs: the random choices only, no files written.

Reproducible and regrowable: job i draws from its own random.Random, seeded
from (seed, i) through SHA-256 (not Python's hash, which varies per process),
so job i is the same whatever the count: the jobs of `count 5` are the first 5
of `count 10`. Likewise body k of a body pool (`body_count`) draws from
(seed, "body", k). The order of the draws of a job is fixed: pattern, body,
fabric, pose (share, file, frame); changing an input list or a range changes
the jobs, changing the count only adds or removes jobs at the end.
"""
import hashlib
import math
import random

# `drape body` macro values, in its order, and the generator's default ranges:
# the sliders' full range except age (0.5 = 25 years .. 1 = 90 years: adults)
# and proportions (0.5 .. 1 ideal).
MACROS = ("gender", "age", "muscle", "weight", "height", "proportions")
DEFAULT_RANGES = {"gender": (0.0, 1.0), "age": (0.5, 1.0), "muscle": (0.0, 1.0), "weight": (0.0, 1.0),
                  "height": (0.0, 1.0), "proportions": (0.5, 1.0)}
STEP = 1000  # sampled macro values are multiples of 1/STEP (body files are named by them)


def rng_for(seed, *key):
    """A random.Random for (seed, *key), the same in every process and Python version."""
    text = ":".join(["drape-dataset", str(seed)] + [str(k) for k in key])
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big"))


def check_range(name, lo, hi):
    """Raises ValueError when (lo, hi) is not a range of 0..1 with room for a sample."""
    if not (0.0 <= lo <= 1.0 and 0.0 <= hi <= 1.0):
        raise ValueError(f"--{name}: {lo:g}:{hi:g} is outside 0..1")
    if lo > hi:
        raise ValueError(f"--{name}: {lo:g}:{hi:g} is empty (low above high)")
    if lo != hi and math.floor(hi * STEP + 1e-9) < math.ceil(lo * STEP - 1e-9):
        raise ValueError(f"--{name}: {lo:g}:{hi:g} holds no multiple of {1 / STEP:g} (give one value instead)")


def sample_macros(rng, ranges):
    """Macro values {name: value} drawn uniformly from `ranges` (multiples of 1/STEP;
    a range lo == hi gives lo exactly), in MACROS order."""
    values = {}
    for name in MACROS:
        lo, hi = ranges[name]
        if lo == hi:
            values[name] = lo
        else:
            k = rng.randint(math.ceil(lo * STEP - 1e-9), math.floor(hi * STEP + 1e-9))
            values[name] = k / STEP
    return values


def sample_job(i, seed, patterns, fabrics, bodies=None, ranges=None, body_count=None, poses=(),
               pose_share=1.0):
    """The choices of job i: {"pattern", "fabric", "body" (a file) or "macros" (values),
    "pose", "frame"}. `poses`: [(file, first frame, last frame)]."""
    rng = rng_for(seed, i)
    job = {"pattern": rng.choice(patterns)}
    if bodies:
        job["body"] = rng.choice(bodies)
    elif body_count:
        k = rng.randrange(body_count)
        job["macros"] = sample_macros(rng_for(seed, "body", k), ranges)
    else:
        job["macros"] = sample_macros(rng, ranges)
    job["fabric"] = rng.choice(fabrics)
    job["pose"] = job["frame"] = None
    if poses and rng.random() < pose_share:
        path, first, last = rng.choice(poses)
        job["pose"], job["frame"] = path, rng.randint(first, last)
    return job
