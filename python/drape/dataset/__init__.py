"""Data sets: a `drape batch` manifest sampled from patterns, body shapes, fabrics
and poses, reproducible from a seed and regrowable (docs/BATCH.md, "Data sets").

    import drape.dataset, drape.batch
    ds = drape.dataset.generate("set/jobs.jsonl", patterns=["data/patterns"], count=100, seed=1,
                                ranges={"gender": (0, 1), "weight": (0.2, 0.8)}, body_count=20,
                                fabrics=["cotton", "silk"], settings={"particle_distance_mm": 30})
    drape.batch.run(ds.manifest, "set/out")

`drape dataset --patterns ... --count N --seed S --out JOBS` is the same call
(`python3 -m drape.dataset`).
"""
from .bodies import BodyError
from .generate import FABRIC_PRESETS, Dataset, DatasetError, generate
from .sampling import DEFAULT_RANGES, MACROS

__all__ = ["generate", "Dataset", "DatasetError", "BodyError", "MACROS", "DEFAULT_RANGES", "FABRIC_PRESETS"]
