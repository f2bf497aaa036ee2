"""drape.batch on a real Dask cluster: a LocalCluster (scheduler + 2 worker processes).

One worker process is killed (SIGKILL) while it runs a job; the scheduler runs
that job again on a worker, and the batch must still end with every job done
and committed exactly once (OUT/.batch/commits.log), its garment.obj equal byte
for byte to the local pool's, and a second run must skip them all.
"""
import logging
import os
import signal
import threading
import time

import pytest

distributed = pytest.importorskip("distributed", reason="Dask distributed not installed (python3-distributed)")

import drape.batch  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")
from conftest import BATCH_JOBS, run_batch_cli, write_batch_manifest  # noqa: E402
from test_batch import FAKE, commits, fake_manifest, result_folders, staging_entries, summary_rows  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit=0,
                                  dashboard_address=None, silence_logs=logging.ERROR) as c:
        with distributed.Client(c) as client:
            yield c, client


def test_dask_worker_killed_mid_job_every_job_done_once(cluster, local_batch, data_dir, tmp_path):
    _, reference, _ = local_batch
    _, client = cluster
    manifest = write_batch_manifest(tmp_path / "jobs.jsonl", data_dir)
    out = tmp_path / "out"
    worker_pids = set(client.run(os.getpid).values())
    assert len(worker_pids) == 2

    outcome = {}

    def batch():
        try:
            outcome["result"] = drape.batch.run(manifest, out, client=client, retries=0)
        except BaseException as e:  # reported by the main thread
            outcome["error"] = e

    runner = threading.Thread(target=batch)
    runner.start()
    # A staging folder is named <id>~<host>.<pid>.<random>, pid that of the worker running it.
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and runner.is_alive() and time.monotonic() < deadline:
        for name in staging_entries(out) if out.exists() else []:
            pid = int(name.split("~", 1)[1].split(".")[-2])
            # Only a job still running (not yet committed) on an original worker.
            if pid in worker_pids and not (out / name.split("~", 1)[0]).exists():
                os.kill(pid, signal.SIGKILL)
                killed = (name.split("~", 1)[0], pid)
                break
        time.sleep(0.02)
    runner.join(timeout=300)
    assert not runner.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert killed is not None, "no job was seen running on a worker"

    result = outcome["result"]
    assert result.counts == {"done": len(BATCH_JOBS)}, result.records
    assert sorted(commits(out)) == sorted(j[0] for j in BATCH_JOBS)  # exactly once, the killed one too
    assert result_folders(out) == sorted(j[0] for j in BATCH_JOBS)
    assert staging_entries(out) == []
    # The killed job ran to the end on a worker that was not the killed process.
    row = summary_rows(out)[killed[0]]
    assert row["status"] == "done" and int(row["pid"]) != killed[1]
    for job_id, _, _ in BATCH_JOBS:
        assert (out / job_id / "garment.obj").read_bytes() == (reference / job_id / "garment.obj").read_bytes()

    # A second run skips them all.
    again = drape.batch.run(manifest, out, client=client)
    assert again.counts == {"skipped": len(BATCH_JOBS)}
    assert len(commits(out)) == len(BATCH_JOBS)


def test_dask_through_the_cli_scheduler_address(cluster, cli, tmp_path):
    """`drape batch --scheduler ADDR` sends the jobs to that cluster (the stand-in CLI runs them)."""
    c, _ = cluster
    manifest = fake_manifest(tmp_path, [("x", "ok"), ("y", "ok"), ("z", "bad")])
    out = tmp_path / "out"
    proc = run_batch_cli(cli, manifest, "--out", out, "--scheduler", c.scheduler_address, "--drape", FAKE)
    assert proc.returncode == 3, proc.stderr  # one job failed
    rows = summary_rows(out)
    assert {k: r["status"] for k, r in rows.items()} == {"x": "done", "y": "done", "z": "failed"}
    assert rows["z"]["exit_class"] == "bad_input"
    assert "Dask" in (out / "summary.json").read_text()
    # Workers that cannot see the CLI: refused before any job, naming the problem.
    proc = run_batch_cli(cli, manifest, "--out", out, "--scheduler", c.scheduler_address, "--drape",
                         tmp_path / "no_such_drape")
    assert proc.returncode == 2 and "no_such_drape" in proc.stderr
