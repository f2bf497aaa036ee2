"""Shared fixtures of the Python module's tests: where the data and the drape CLI are.

ctest sets PYTHONPATH (build/python), DRAPE_CLI and DRAPE_DATA_DIR; run by hand:
PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python
"""
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def data_dir():
    return pathlib.Path(os.environ.get("DRAPE_DATA_DIR", REPO / "data"))


@pytest.fixture(scope="session")
def bad_dir():
    return REPO / "tests" / "data" / "bad"


@pytest.fixture(scope="session")
def cli():
    path = pathlib.Path(os.environ.get("DRAPE_CLI", REPO / "build" / "apps" / "drape" / "drape"))
    if not path.exists():
        pytest.fail(f"drape CLI not found at {path} (build it, or set DRAPE_CLI)")
    return path


# --- The batch engine's tests (test_batch*.py) ------------------------------

import json  # noqa: E402
import subprocess  # noqa: E402

# Four tiny jobs: the 2-panel skirt and the straight trousers at coarse particle
# distances, a few frames each, one thread (a job's result depends on it).
BATCH_JOBS = [
    ("skirt_60", "skirt_2_panels.json", {"particle_distance_mm": 60, "max_frames": 12}),
    ("skirt_80", "skirt_2_panels.json", {"particle_distance_mm": 80, "max_frames": 12}),
    ("pants_80", "pants_straight_sides.json", {"particle_distance_mm": 80, "max_frames": 8}),
    ("skirt_70_silk", "skirt_2_panels.json", {"particle_distance_mm": 70, "max_frames": 10}),
]


def write_batch_manifest(path, data_dir, jobs=BATCH_JOBS, extra=None):
    """A manifest of `jobs` (id, pattern file, settings) on the MakeHuman body."""
    lines = []
    for job_id, pattern, settings in jobs:
        job = {"id": job_id, "body": str(data_dir / "bodies" / "makehuman" / "base.obj"),
               "pattern": str(data_dir / "patterns" / "gpg" / pattern),
               "settings": dict(settings, render=False)}
        if "silk" in job_id:
            job["fabric"] = "silk"
        lines.append(json.dumps(job))
    path.write_text("\n".join(lines + (extra or [])) + "\n")
    return path


def run_batch_cli(cli, *args, **kw):
    """`drape batch ARGS` with its output captured."""
    return subprocess.run([str(cli), "batch", *map(str, args)], capture_output=True, text=True, **kw)


@pytest.fixture(scope="session")
def local_batch(tmp_path_factory, data_dir, cli):
    """BATCH_JOBS run once by the local pool (2 workers): (manifest, out folder, completed process)."""
    root = tmp_path_factory.mktemp("local_batch")
    manifest = write_batch_manifest(root / "jobs.jsonl", data_dir)
    out = root / "out"
    proc = run_batch_cli(cli, manifest, "--out", out, "--workers", 2)
    return manifest, out, proc
