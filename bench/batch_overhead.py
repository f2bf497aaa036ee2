#!/usr/bin/python3
"""Per-job overhead of drape.batch (docs/PERFORMANCE.md "Batch throughput"); a benchmark, not a test.

    PYTHONPATH=build/python /usr/bin/python3 bench/batch_overhead.py
"""
# Per-job CPU overhead of drape.batch (local pool, 1 worker) against plain `drape dress`, on
# 20 near-empty jobs (skirt, 80 mm, 1 frame): CPU seconds are what the load does not change.
import json, os, pathlib, resource, shutil, subprocess, sys, time
import drape.batch
from drape.batch.engine import default_cli
root = pathlib.Path("/tmp/batch_ovh"); shutil.rmtree(root, ignore_errors=True); root.mkdir()
repo = pathlib.Path.cwd(); n = 20
body = str(repo / "data/bodies/makehuman/base.obj"); pat = str(repo / "data/patterns/gpg/skirt_2_panels.json")
(root / "jobs.jsonl").write_text("".join(json.dumps({"id": f"j{i}", "body": body, "pattern": pat, "settings": {
    "particle_distance_mm": 80 + i * 0.001, "max_frames": 1, "render": False}}) + "\n" for i in range(n)))
def cpu():
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime
cli = default_cli()
for rep in range(2):
    c, t = cpu(), time.monotonic()
    for i in range(n):
        subprocess.run([cli, "--threads", "1", "dress", "--body", body, "--pattern", pat, "--particle-distance",
                        repr(80 + i * 0.001), "--max-frames", "1", "--no-render", "--quiet", "--out", str(root / f"p{rep}" / f"j{i}")], check=True)
    pc, pw = cpu() - c, time.monotonic() - t
    c, t = cpu(), time.monotonic()
    r = drape.batch.run(root / "jobs.jsonl", root / f"b{rep}", workers=1); assert r.counts == {"done": n}
    bc, bw = cpu() - c, time.monotonic() - t
    print(f"repeat {rep}: plain {pc:.2f} s CPU {pw:.1f} s wall; batch {bc:.2f} s CPU {bw:.1f} s wall; "
          f"overhead/job {(bc - pc) / n * 1000:+.0f} ms CPU {(bw - pw) / n * 1000:+.0f} ms wall; load {os.getloadavg()[0]:.1f}")
