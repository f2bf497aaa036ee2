#!/usr/bin/python3
"""Throughput of `drape batch` (docs/PERFORMANCE.md "Batch throughput"); a benchmark, not a test.

Runs the same manifest (the bundled patterns x fabrics on the MakeHuman body) as
  plain     one `drape dress` after another (the baseline: no batch engine),
  local 1   drape.batch.run(workers=1),
  local 2   drape.batch.run(workers=2),
  dask 2    drape.batch.run on a Dask LocalCluster (scheduler + 2 single-threaded worker processes),
each into a fresh folder, and prints garments/hour, scaling efficiency and the
per-job overhead (wall and CPU seconds against the plain runs). CPU seconds are
those of this process and its reaped children (for Dask: the cluster's whole
life, started and closed inside the measurement; a second Dask row times the
batch alone, the cluster already up).

    PYTHONPATH=build/python /usr/bin/python3 bench/batch_throughput.py [--repeat R] [--frames F] [--out DIR]
"""
import argparse
import json
import logging
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import time

import drape.batch
from drape.batch.engine import default_cli

REPO = pathlib.Path(__file__).resolve().parents[1]
PATTERNS = ["gpg/skirt_2_panels", "gpg/pants_straight_sides", "garmentcode/flare_skirt_specification",
            "garmentcode/shirt_mean_specification"]
FABRICS = ["cotton", "denim"]
DASK_RUN_WALL = []  # wall of drape.batch.run alone (the cluster already up), per repeat


def cpu_s():
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def manifest(path, frames, mm):
    body = REPO / "data" / "bodies" / "makehuman" / "base.obj"
    lines = []
    for p in PATTERNS:
        for f in FABRICS:
            lines.append(json.dumps({"id": f"{p.split('/')[1]}_{f}", "body": str(body),
                                     "pattern": str(REPO / "data" / "patterns" / f"{p}.json"), "fabric": f,
                                     "settings": {"particle_distance_mm": mm, "max_frames": frames,
                                                  "render": False}}))
    path.write_text("\n".join(lines) + "\n")
    return [json.loads(line) for line in lines]


def plain(jobs, cli, out):
    for j in jobs:
        s = j["settings"]
        subprocess.run([cli, "--threads", "1", "dress", "--body", j["body"], "--pattern", j["pattern"], "--fabric",
                        j["fabric"], "--particle-distance", str(s["particle_distance_mm"]), "--max-frames",
                        str(s["max_frames"]), "--no-render", "--quiet", "--out", str(out / j["id"])], check=True)


def dask_run(path, out):
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit=0,
                                  dashboard_address=None, silence_logs=logging.ERROR) as c:
        with distributed.Client(c) as client:
            t0 = time.monotonic()
            result = drape.batch.run(path, out, client=client)
            DASK_RUN_WALL.append(time.monotonic() - t0)
            return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=1, help="runs of each configuration (the best is kept)")
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--particle-distance", type=float, default=40)
    ap.add_argument("--out", default="/tmp/drape_batch_bench")
    a = ap.parse_args()
    root = pathlib.Path(a.out)
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    path = root / "jobs.jsonl"
    jobs = manifest(path, a.frames, a.particle_distance)
    cli = default_cli()
    configs = [("plain", lambda o: plain(jobs, cli, o)),
               ("local 1", lambda o: drape.batch.run(path, o, workers=1)),
               ("local 2", lambda o: drape.batch.run(path, o, workers=2))]
    try:
        import distributed  # noqa: F401
        configs.append(("dask 2", lambda o: dask_run(path, o)))
    except ImportError:
        print("Dask distributed not installed: no dask row", file=sys.stderr)
    results = {}
    for r in range(a.repeat):
        for name, fn in configs:
            out = root / f"{name.replace(' ', '_')}_{r}"
            c0, t0 = cpu_s(), time.monotonic()
            res = fn(out)
            wall, cpu = time.monotonic() - t0, cpu_s() - c0
            if res is not None:
                assert res.counts == {"done": len(jobs)}, res.counts
            best = results.get(name)
            if best is None or wall < best[0]:
                results[name] = (wall, cpu)
            print(f"{name}: {wall:.1f} s wall, {cpu:.1f} s CPU", file=sys.stderr, flush=True)
    # Every configuration drapes the same garments: check it.
    ref = root / "plain_0"
    for name, _ in configs[1:]:
        for j in jobs:
            same = (ref / j["id"] / "garment.obj").read_bytes() == \
                (root / f"{name.replace(' ', '_')}_0" / j["id"] / "garment.obj").read_bytes()
            assert same, (name, j["id"])
    n = len(jobs)
    base_wall, base_cpu = results["plain"]
    load = os.getloadavg()
    print(f"{n} jobs ({len(PATTERNS)} patterns x {len(FABRICS)} fabrics, {a.particle_distance:g} mm, "
          f"{a.frames} frames, 1 thread each), best of {a.repeat}; {os.cpu_count()} cores, "
          f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}; garment.obj identical in every row")
    print("| run | wall s | garments/hour | speed-up vs local 1 | scaling efficiency | CPU s | "
          "overhead/job wall s | overhead/job CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    one = results["local 1"][0]
    for name, _ in configs:
        wall, cpu = results[name]
        workers = 2 if "2" in name else 1
        # Wall overhead only where one job runs at a time (plain is the baseline).
        ovh_wall = f"{(wall - base_wall) / n:+.2f}" if name == "local 1" else "-"
        print(f"| {name} | {wall:.1f} | {3600 * n / wall:.0f} | {one / wall:.2f}x | "
              f"{one / wall / workers:.0%} | {cpu:.1f} | {ovh_wall} | {(cpu - base_cpu) / n:+.2f} |")
        if name == "dask 2":
            run = min(DASK_RUN_WALL)
            print(f"| dask 2, cluster already up | {run:.1f} | {3600 * n / run:.0f} | {one / run:.2f}x | "
                  f"{one / run / workers:.0%} | - | - | - |")

if __name__ == "__main__":
    main()
