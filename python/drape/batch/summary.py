"""OUT/summary.csv and OUT/summary.json: one row per manifest job, written atomically."""
import csv
import io
import json
import os
import time

from .job import write_atomically

COLUMNS = ["id", "line", "status", "exit_class", "exit_code", "reason", "stop_reason", "frames", "seams_joined",
           "seams_total", "vertices_inside", "body_crossings", "self_crossings", "strain_max", "strain_p99", "wall_s",
           "attempts", "host", "pid", "hash"]


def write_summary(out_dir, records, meta):
    """Writes both files from `records` (manifest order); returns their paths."""
    counts = {}
    for r in records:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in records:
        w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in COLUMNS})
    csv_path = os.path.join(out_dir, "summary.csv")
    json_path = os.path.join(out_dir, "summary.json")
    write_atomically(csv_path, buf.getvalue())
    doc = dict(meta, written=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), counts=counts,
               jobs=[{k: r.get(k) for k in COLUMNS} for r in records])
    write_atomically(json_path, json.dumps(doc, indent=1) + "\n")
    return [csv_path, json_path]
