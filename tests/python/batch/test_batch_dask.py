"""drape.batch on a real Dask cluster: a LocalCluster (scheduler + 2 worker processes).

One worker process is killed (SIGKILL) while it runs a job; the scheduler runs
that job again on a worker, and the batch must still end with every job done
and committed exactly once (OUT/.batch/commits.log), its garment.obj equal byte
for byte to the local pool's, and a second run must skip them all.
"""
import json
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


def test_dask_results_to_client_without_shared_storage(cluster, local_batch, data_dir, tmp_path):
    """--results client: the inputs go to the workers as bytes, the result folders come back
    and this process commits them; the garments are the local pool's, byte for byte."""
    _, reference, _ = local_batch
    _, client = cluster
    manifest = write_batch_manifest(tmp_path / "jobs.jsonl", data_dir)
    out = tmp_path / "out"
    worker_pids = set(client.run(os.getpid).values())
    result = drape.batch.run(manifest, out, client=client, results="client")
    assert result.counts == {"done": len(BATCH_JOBS)}, result.records
    assert "results client" in json.loads((out / "summary.json").read_text())["executor"]
    rows = summary_rows(out)
    for job_id, _, _ in BATCH_JOBS:
        assert (out / job_id / "garment.obj").read_bytes() == (reference / job_id / "garment.obj").read_bytes()
        assert int(rows[job_id]["pid"]) in worker_pids  # run on a worker ...
        batch = json.loads((out / job_id / "batch.json").read_text())
        assert batch["job"]["body"] == str(data_dir / "bodies" / "makehuman" / "base.obj")  # ... as the manifest says
    # ... and committed here: every commit line is this process's, once per job.
    lines = (out / ".batch" / "commits.log").read_text().splitlines()
    assert sorted(line.split()[0] for line in lines) == sorted(j[0] for j in BATCH_JOBS)
    assert {int(line.split()[3]) for line in lines} == {os.getpid()}
    assert staging_entries(out) == []

    def leftovers():
        import glob
        import tempfile
        return glob.glob(os.path.join(tempfile.gettempdir(), f"drape-batch-{os.getpid()}-*"))

    assert all(v == [] for v in client.run(leftovers).values())  # the workers' private folders removed
    again = drape.batch.run(manifest, out, client=client, results="client")
    assert again.counts == {"skipped": len(BATCH_JOBS)}


def test_dask_auto_results_mode(cluster, tmp_path):
    """auto: shared when every worker sees OUT (this LocalCluster does), else client; a worker
    whose drape is another version, or that has none, is refused naming it."""
    from drape.batch.dask_executor import _worker_check, choose_results

    _, client = cluster
    manifest = fake_manifest(tmp_path, [("x", "ok")])
    out = tmp_path / "out"
    drape.batch.run(manifest, out, client=client, cli=str(FAKE))
    assert "results shared" in json.loads((out / "summary.json").read_text())["executor"]
    # A worker's view without the probe file (another machine): client mode.
    seen = _worker_check(str(FAKE), str(out), "probe-that-is-not-there")
    assert seen["sees_out"] is False and seen["cli"] == str(FAKE) and seen["version"] == "drape fake-1"
    assert choose_results("auto", {"w1": seen}, str(FAKE), str(out), "drape fake-1") == "client"
    with pytest.raises(drape.batch.ManifestError, match="w1: does not see the output folder"):
        choose_results("shared", {"w1": seen}, str(FAKE), str(out), "drape fake-1")
    with pytest.raises(drape.batch.ManifestError,
                       match="w1: drape CLI .* is 'drape fake-1', the client's is 'drape 9'"):
        choose_results("client", {"w1": seen}, str(FAKE), str(out), "drape 9")
    lost = dict(seen, cli=None, cli_at_path=False, version=None)
    with pytest.raises(drape.batch.ManifestError, match="w2: no drape CLI"):
        choose_results("auto", {"w1": seen, "w2": lost}, str(FAKE), str(out), "drape fake-1")
