"""Animate jobs in batch manifests: a job with a `motion` runs `drape animate`.

Independent answer: the batch job's garment.pc2 (the cloth through every frame)
must equal, byte for byte, a `drape animate` run by hand with the same inputs
and options (the command line is built here, not by the engine); the summary
row takes its numbers from that run's report.json. Manifest errors specific to
animate jobs exit 2 naming the line.
"""
import json
import subprocess

import pytest

import drape.batch
from conftest import run_batch_cli
from test_batch import summary_rows

SETTINGS = {"particle_distance_mm": 80, "max_frames": 10, "blend_frames": 2, "settle_frames": 1, "sheet_frames": 0,
            "threads": 1}


def test_animate_job_equals_plain_animate(cli, data_dir, tmp_path):
    body = data_dir / "bodies" / "makehuman" / "base.obj"
    pattern = data_dir / "patterns" / "gpg" / "skirt_2_panels.json"
    motion = data_dir / "motion" / "cmu_jumping_jacks.bvh"
    manifest = tmp_path / "jobs.jsonl"
    manifest.write_text(json.dumps({"id": "jj", "body": str(body), "pattern": str(pattern), "motion": str(motion),
                                    "frames": "0:2", "fabric": "jersey", "settings": SETTINGS}) + "\n")
    out = tmp_path / "out"
    result = drape.batch.run(manifest, out, workers=1)
    assert result.counts == {"done": 1}, result.records
    names = {p.name for p in (out / "jj").iterdir()}
    assert {"garment.obj", "garment.pc2", "body.pc2", "report.json", "batch.json", "log.txt"} <= names, names

    plain = tmp_path / "plain"
    subprocess.run([str(cli), "--threads", "1", "animate", "--body", str(body), "--pattern", str(pattern),
                    "--motion", str(motion), "--frames", "0:2", "--fabric", "jersey", "--particle-distance", "80",
                    "--max-frames", "10", "--blend-frames", "2", "--settle-frames", "1", "--sheet-frames", "0",
                    "--quiet", "--out", str(plain)], check=True)
    assert (out / "jj" / "garment.pc2").read_bytes() == (plain / "garment.pc2").read_bytes()
    assert (out / "jj" / "garment.obj").read_bytes() == (plain / "garment.obj").read_bytes()
    report = json.loads((plain / "report.json").read_text())
    row = summary_rows(out)["jj"]
    assert int(row["frames"]) == report["summary"]["cache_frames"] == 3
    assert row["stop_reason"] == report["rest_drape"]["stop_reason"]
    assert int(row["self_crossings"]) == report["summary"]["worst"]["self_crossing_pairs"]
    assert int(row["seams_joined"]) == report["rest_drape"]["seams"]["joined"]
    # A rerun skips it; another frame window is another job (its hash changes).
    assert drape.batch.run(manifest, out).counts == {"skipped": 1}
    jobs = drape.batch.read_manifest(manifest)
    other = drape.batch.manifest.Job.from_dict(dict(jobs[0].to_dict(), frames="0:3"))
    assert drape.batch.job.job_hash(other, "e", 1) != drape.batch.job.job_hash(jobs[0], "e", 1)


GOOD = '{"id": "a", "body": "%(body)s", "pattern": "%(pattern)s"}'


@pytest.mark.parametrize("line, message", [
    ('{"id": "b", "body": "%(body)s", "pattern": "%(pattern)s", "motion": "%(motion)s", "settings": {"render": false}}',
     "settings.render: not an option of `drape animate`"),
    ('{"id": "b", "body": "%(body)s", "pattern": "%(pattern)s", "settings": {"fps": 30}}',
     "settings.fps: only for animate jobs"),
    ('{"id": "b", "body": "%(body)s", "pattern": "%(pattern)s", "frames": "0:3"}', "frames: given without a motion"),
    ('{"id": "b", "body": "%(body)s", "pattern": "%(pattern)s", "motion": "%(motion)s", "frames": "5:3"}',
     'frames: expected "A:B"'),
    ('{"id": "b", "body": "%(body)s", "pattern": "%(pattern)s", "motion": "%(motion)s", "pose": "%(motion)s"}',
     "pose: a job has a pose (dress) or a motion (animate), not both"),
    ('{"id": "b", "body": "%(body)s", "pattern": "%(pattern)s", "motion": "walk.bvh"}', "motion: no such file"),
])
def test_bad_animate_jobs_exit_2(tmp_path, cli, data_dir, line, message):
    paths = {"body": data_dir / "bodies" / "makehuman" / "base.obj",
             "pattern": data_dir / "patterns" / "gpg" / "skirt_2_panels.json",
             "motion": data_dir / "motion" / "cmu_jumping_jacks.bvh"}
    manifest = tmp_path / "jobs.jsonl"
    manifest.write_text("\n".join([GOOD % paths, line % paths]) + "\n")
    proc = run_batch_cli(cli, manifest, "--out", tmp_path / "out")
    assert proc.returncode == 2, proc.stderr
    assert f"{manifest}:2: {message}" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()
