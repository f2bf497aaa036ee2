"""`drape batch` / drape.batch.run with the local pool, against plain `drape dress`.

Independent answers: a batch job's garment.obj must equal, byte for byte, a
`drape dress` run by hand with the same inputs and settings (the command line
is built here, not by the engine); a rerun must touch nothing; a batch killed
(kill -9) and then interrupted (Ctrl-C) must, when rerun, end with every job
committed exactly once (OUT/.batch/commits.log) and the same bytes as an
uninterrupted batch. The engine's bookkeeping (retries, exit classes, hashes,
shards) runs on a stand-in CLI (fake_drape.py) that needs no simulation.
"""
import csv
import json
import os
import pathlib
import signal
import subprocess
import time

import pytest

import drape.batch
from conftest import BATCH_JOBS, run_batch_cli, write_batch_manifest

FAKE = pathlib.Path(__file__).resolve().parent / "fake_drape.py"


def summary_rows(out):
    with open(out / "summary.csv", newline="") as f:
        return {row["id"]: row for row in csv.DictReader(f)}


def commits(out):
    path = out / ".batch" / "commits.log"
    return [line.split()[0] for line in path.read_text().splitlines()] if path.exists() else []


def staging_entries(out):
    staging = out / ".batch" / "staging"
    return sorted(os.listdir(staging)) if staging.exists() else []


def result_folders(out):
    return sorted(p.name for p in out.iterdir() if p.is_dir() and not p.name.startswith("."))


def assert_complete(out, job_id):
    """A result folder holds the whole job: the dress outputs and batch.json (written last)."""
    names = set(os.listdir(out / job_id))
    assert {"garment.obj", "scene.glb", "report.json", "batch.json", "log.txt"} <= names, names
    assert json.loads((out / job_id / "batch.json").read_text())["status"] == "done"


def test_local_pool_equals_plain_dress(local_batch, cli, data_dir, tmp_path):
    manifest, out, proc = local_batch
    assert proc.returncode == 0, proc.stderr
    rows = summary_rows(out)
    assert list(rows) == [j[0] for j in BATCH_JOBS]
    body = data_dir / "bodies" / "makehuman" / "base.obj"
    for job_id, pattern, settings in BATCH_JOBS:
        assert_complete(out, job_id)
        plain = tmp_path / job_id
        cmd = [str(cli), "--threads", "1", "dress", "--body", str(body), "--pattern",
               str(data_dir / "patterns" / "gpg" / pattern), "--particle-distance",
               str(settings["particle_distance_mm"]), "--max-frames", str(settings["max_frames"]), "--no-render",
               "--quiet", "--out", str(plain)]
        if "silk" in job_id:
            cmd += ["--fabric", "silk"]
        subprocess.run(cmd, check=True)
        assert (out / job_id / "garment.obj").read_bytes() == (plain / "garment.obj").read_bytes(), job_id
        report = json.loads((plain / "report.json").read_text())["result"]
        row = rows[job_id]
        assert row["status"] == "done" and row["exit_class"] == "" and row["attempts"] == "1"
        assert row["stop_reason"] == report["stop_reason"]
        assert int(row["seams_joined"]) == report["seams"]["joined"]
        assert int(row["seams_total"]) == report["seams"]["pairs"]
        assert int(row["self_crossings"]) == report["intersections"]["self_crossing_pairs"]
        assert float(row["strain_max"]) == pytest.approx(report["strain"]["max"])
        assert float(row["wall_s"]) > 0
    assert sorted(commits(out)) == sorted(j[0] for j in BATCH_JOBS)
    assert staging_entries(out) == []
    summary = json.loads((out / "summary.json").read_text())
    assert summary["counts"] == {"done": 4} and [j["id"] for j in summary["jobs"]] == list(rows)


def test_rerun_skips_every_job_and_touches_nothing(local_batch, cli):
    manifest, out, _ = local_batch
    before = {j[0]: (out / j[0] / "garment.obj").stat() for j in BATCH_JOBS}
    proc = run_batch_cli(cli, manifest, "--out", out, "--workers", 2)
    assert proc.returncode == 0, proc.stderr
    assert {r["status"] for r in summary_rows(out).values()} == {"skipped"}
    for job_id, st in before.items():
        now = (out / job_id / "garment.obj").stat()
        assert (now.st_ino, now.st_mtime_ns) == (st.st_ino, st.st_mtime_ns)
    assert len(commits(out)) == len(BATCH_JOBS)


def wait_for(condition, what, limit_s=120):
    deadline = time.monotonic() + limit_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


def dress_processes_writing_to(out):
    """PIDs of live processes whose command line names a path under `out` (via /proc)."""
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and any(str(out).encode() in a for a in cmd) and b"dress" in cmd:
            pids.append(int(pid))
    return pids


def test_killed_then_interrupted_batch_finishes_on_rerun(local_batch, cli, data_dir, tmp_path):
    """kill -9 mid-job, then Ctrl-C mid-job, then a rerun: nothing lost, duplicated or half-written."""
    _, reference, _ = local_batch
    manifest = write_batch_manifest(tmp_path / "jobs.jsonl", data_dir)
    out = tmp_path / "out"
    args = [str(cli), "batch", str(manifest), "--out", str(out), "--workers", "1", "--quiet"]

    def committed():
        return [d for d in result_folders(out) if (out / d / "batch.json").exists()] if out.exists() else []

    # 1. kill -9 of the batch alone while its second job runs: its `drape dress` dies with it.
    p = subprocess.Popen(args, start_new_session=True)
    wait_for(lambda: len(committed()) >= 1 and staging_entries(out), "a job done and the next one running")
    p.kill()
    p.wait()
    wait_for(lambda: not dress_processes_writing_to(out), "the orphaned drape dress to die", 10)
    assert all(set(os.listdir(out / d)) >= {"garment.obj", "batch.json"} for d in result_folders(out))
    first = committed()

    # 2. Ctrl-C (SIGINT to the whole process group, as a terminal sends it) while another job runs.
    p = subprocess.Popen(args, start_new_session=True)
    wait_for(lambda: len(committed()) > len(first) and staging_entries(out), "one more job done")
    os.killpg(p.pid, signal.SIGINT)
    assert p.wait(timeout=60) == 130
    assert staging_entries(out) == []  # a clean stop removes its staging folders
    rows = summary_rows(out)
    assert {rows[d]["status"] for d in first} == {"skipped"}
    assert sum(r["status"] == "pending" for r in rows.values()) == len(BATCH_JOBS) - len(committed())
    second = committed()
    assert 2 <= len(second) < len(BATCH_JOBS)

    # 3. The rerun finishes the rest.
    assert subprocess.run(args).returncode == 0
    rows = summary_rows(out)
    assert {rows[d]["status"] for d in second} == {"skipped"}
    assert all(rows[j[0]]["status"] == "done" for j in BATCH_JOBS if j[0] not in second)
    assert sorted(commits(out)) == sorted(j[0] for j in BATCH_JOBS)  # each committed exactly once
    assert result_folders(out) == sorted(j[0] for j in BATCH_JOBS)
    assert staging_entries(out) == []
    for job_id, _, _ in BATCH_JOBS:
        assert_complete(out, job_id)
        assert (out / job_id / "garment.obj").read_bytes() == (reference / job_id / "garment.obj").read_bytes()


GOOD = '{"id": "a", "body": "%(body)s", "pattern": "%(pattern)s"}'


@pytest.mark.parametrize("line, message", ids=["missing", "unknown_key", "unknown_setting", "setting_type",
                                               "no_file", "duplicate", "bad_id", "not_json", "long_line"], argvalues=[
    ('{"id": "b", "body": "%(body)s"}', "missing required key 'pattern'"),
    ('{"id": "b", "body": "%(body)s", "pattern": "%(pattern)s", "colour": "red"}', "unknown key(s) 'colour'"),
    ('{"id": "b", "body": "%(body)s", "pattern": "%(pattern)s", "settings": {"particle_distance": 5}}',
     "settings: unknown key 'particle_distance'"),
    ('{"id": "b", "body": "%(body)s", "pattern": "%(pattern)s", "settings": {"max_frames": "ten"}}',
     "settings.max_frames: wrong type"),
    ('{"id": "b", "body": "no/such/body.obj", "pattern": "%(pattern)s"}', "body: no such file 'no/such/body.obj'"),
    ('{"id": "a", "body": "%(body)s", "pattern": "%(pattern)s"}', "duplicate id 'a' (first on line 1)"),
    ('{"id": "../b", "body": "%(body)s", "pattern": "%(pattern)s"}', "id '../b'"),
    ('{"id": "b", "body": "%(body)s", ', "not JSON"),
    ('{"id": "b", "body": "%(body)s", "pattern": "%(pattern)s", "pad": "%(pad)s"}',
     "line longer than 1048576 bytes"),
])
def test_bad_manifest_exits_2_naming_the_line(tmp_path, cli, data_dir, line, message):
    paths = {"body": data_dir / "bodies" / "makehuman" / "base.obj",
             "pattern": data_dir / "patterns" / "gpg" / "skirt_2_panels.json", "pad": "x" * 1_500_000}
    manifest = tmp_path / "jobs.jsonl"
    manifest.write_text("\n".join([GOOD % paths, "", line % paths]) + "\n")
    out = tmp_path / "out"
    proc = run_batch_cli(cli, manifest, "--out", out)
    assert proc.returncode == 2, proc.stderr
    assert f"{manifest}:3: {message}" in proc.stderr
    assert len(proc.stderr) < 2000
    assert not out.exists()  # nothing started


def test_bad_options_exit_2(tmp_path, cli):
    proc = run_batch_cli(cli, tmp_path / "missing.jsonl", "--out", tmp_path / "out")
    assert proc.returncode == 2 and "missing.jsonl" in proc.stderr
    manifest = tmp_path / "jobs.jsonl"
    manifest.write_text(GOOD % {"body": FAKE, "pattern": FAKE} + "\n")
    proc = run_batch_cli(cli, manifest, "--out", tmp_path / "out", "--shard", "2/2")
    assert proc.returncode == 2 and "--shard" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_help_and_version(cli):
    proc = run_batch_cli(cli, "--help")
    assert proc.returncode == 0 and "--scheduler" in proc.stdout and "--shard" in proc.stdout
    version = subprocess.run([str(cli), "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.startswith("drape ")


# --- Bookkeeping, on the stand-in CLI --------------------------------------------------------


def fake_manifest(tmp_path, modes):
    """One job per (id, mode); each its own pattern file whose first line is the mode."""
    body = tmp_path / "body.obj"
    body.write_text("v 0 0 0\n")
    lines = []
    for job_id, mode in modes:
        pattern = tmp_path / f"{job_id}.json"
        pattern.write_text(f"{mode}\n{job_id}\n")
        lines.append(json.dumps({"id": job_id, "body": "body.obj", "pattern": pattern.name,
                                 "settings": {"max_frames": 5}}))
    manifest = tmp_path / "jobs.jsonl"
    manifest.write_text("\n".join(lines) + "\n")
    return manifest


def by_id(result):
    return {r["id"]: r for r in result.records}


def test_retries_and_exit_classes(tmp_path, monkeypatch):
    log = tmp_path / "calls.log"
    monkeypatch.setenv("FAKE_DRAPE_LOG", str(log))
    manifest = fake_manifest(tmp_path, [("ok", "ok"), ("flaky", "crash-once"), ("crashes", "crash"),
                                        ("bad", "bad"), ("diverges", "diverge")])
    out = tmp_path / "out"
    result = drape.batch.run(manifest, out, workers=2, retries=2, cli=str(FAKE))
    r = by_id(result)
    assert (r["ok"]["status"], r["ok"]["attempts"]) == ("done", 1)
    assert (r["flaky"]["status"], r["flaky"]["attempts"]) == ("done", 2)
    assert (r["crashes"]["status"], r["crashes"]["exit_class"], r["crashes"]["attempts"]) == ("failed", "killed", 3)
    assert "SIGKILL" in r["crashes"]["reason"]
    assert (r["bad"]["exit_class"], r["bad"]["exit_code"], r["bad"]["attempts"]) == ("bad_input", 2, 1)
    assert "not a pattern" in r["bad"]["reason"]
    assert (r["diverges"]["exit_class"], r["diverges"]["attempts"]) == ("simulation_failed", 1)
    assert result.run_failed == 3 and drape.batch.engine.exit_code(result) == 3
    assert result_folders(out) == ["flaky", "ok"] and staging_entries(out) == []
    assert (out / "ok" / "garment.obj").read_text() == "ok\nok\n"
    calls = [line.split()[0] for line in log.read_text().splitlines()]
    assert sorted(calls) == sorted(["ok.json", "flaky.json", "flaky.json", "crashes.json", "crashes.json",
                                    "crashes.json", "bad.json", "diverges.json"])
    # A rerun skips what is done and runs the failed jobs again.
    log.unlink()
    result = drape.batch.run(manifest, out, workers=2, retries=0, cli=str(FAKE))
    statuses = {k: v["status"] for k, v in by_id(result).items()}
    assert statuses == {"ok": "skipped", "flaky": "skipped", "crashes": "failed", "bad": "failed",
                        "diverges": "failed"}
    assert sorted(line.split()[0] for line in log.read_text().splitlines()) == \
        ["bad.json", "crashes.json", "diverges.json"]


def test_changed_inputs_or_settings_rerun_only_that_job(tmp_path, monkeypatch):
    log = tmp_path / "calls.log"
    monkeypatch.setenv("FAKE_DRAPE_LOG", str(log))
    manifest = fake_manifest(tmp_path, [("a", "ok"), ("b", "ok"), ("c", "ok")])
    out = tmp_path / "out"
    assert drape.batch.run(manifest, out, cli=str(FAKE)).counts == {"done": 3}
    # b's settings change, c's pattern bytes change: only those two run again.
    manifest.write_text(manifest.read_text().replace('"b.json", "settings": {"max_frames": 5}',
                                                     '"b.json", "settings": {"max_frames": 6}'))
    (tmp_path / "c.json").write_text("ok\nc, edited\n")
    log.unlink()
    result = drape.batch.run(manifest, out, cli=str(FAKE))
    assert {k: v["status"] for k, v in by_id(result).items()} == {"a": "skipped", "b": "done", "c": "done"}
    assert sorted(line.split()[0] for line in log.read_text().splitlines()) == ["b.json", "c.json"]
    assert (out / "c" / "garment.obj").read_text() == "ok\nc, edited\n"
    assert not (out / ".batch" / "trash").exists() or not os.listdir(out / ".batch" / "trash")
    # The thread count is part of a job's hash (results depend on it).
    assert drape.batch.run(manifest, out, cli=str(FAKE), threads=2).counts == {"done": 3}


def test_shards_split_the_manifest(tmp_path, monkeypatch):
    log = tmp_path / "calls.log"
    monkeypatch.setenv("FAKE_DRAPE_LOG", str(log))
    ids = [f"j{i}" for i in range(7)]
    manifest = fake_manifest(tmp_path, [(i, "ok") for i in ids])
    out = tmp_path / "out"
    first = drape.batch.run(manifest, out, shard="0/3", cli=str(FAKE))
    assert [r["id"] for r in first.records if r["status"] == "done"] == ["j0", "j3", "j6"]
    assert {r["status"] for r in first.records if r["id"] not in ("j0", "j3", "j6")} == {"pending"}
    drape.batch.run(manifest, out, shard=(1, 3), cli=str(FAKE))
    last = drape.batch.run(manifest, out, shard="2/3", cli=str(FAKE))
    assert [r["id"] for r in last.records if r["status"] == "done"] == ["j2", "j5"]
    assert sorted(line.split()[0] for line in log.read_text().splitlines()) == sorted(f"{i}.json" for i in ids)
    assert {row["status"] for row in summary_rows(out).values()} == {"done", "skipped"}


def test_timeout_kills_the_attempt(tmp_path):
    manifest = fake_manifest(tmp_path, [("hangs", "hang")])
    result = drape.batch.run(manifest, tmp_path / "out", timeout=2, retries=2, cli=str(FAKE))
    r = by_id(result)["hangs"]
    assert (r["status"], r["exit_class"], r["attempts"]) == ("failed", "timeout", 1)  # not retried
    assert result_folders(tmp_path / "out") == [] and staging_entries(tmp_path / "out") == []
