"""Batch draping: many `drape dress` jobs from a JSON Lines manifest, resumable,
on a local pool of processes or a Dask cluster (docs/BATCH.md).

    import drape.batch
    result = drape.batch.run("jobs.jsonl", "out/batch", workers=2)
    result.counts            # {"done": 3, "skipped": 1}
    result.records[0]        # the summary row of the first job

`drape batch JOBS --out DIR ...` is the same call (`python3 -m drape.batch`).
"""
from .engine import BatchResult, run
from .errors import ManifestError
from .manifest import read_manifest

__all__ = ["run", "BatchResult", "ManifestError", "read_manifest"]
