"""The batch: validate the manifest, skip what is done, run the rest, write the summary.

Order of a run (each step finishes before the next starts):
1. read and validate the whole manifest (ManifestError, exit 2, before any job);
2. keep this shard's jobs (`--shard I/N`: manifest jobs I, I+N, I+2N, ...);
3. hash every job (input bytes + settings + thread count + engine version);
   a job whose OUT/<id>/batch.json has that hash is skipped;
4. remove staging folders left by killed runs of this shard's jobs, run the rest
   on the executor (local pool or Dask), each committed by its own rename;
5. write OUT/summary.csv and summary.json (every manifest job), also every
   SUMMARY_EVERY_S while jobs finish, so a killed batch still has a fresh one.
"""
import json
import os
import shutil
import subprocess
import sys
import time

from . import progress as progress_mod
from .errors import ManifestError
from .job import STAGING_SEP, job_hash, read_result, state_path, write_atomically
from .manifest import MAX_LINE_BYTES, parse_shard, read_manifest
from .summary import write_summary

SUMMARY_EVERY_S = 10.0


class BatchResult:
    """What a run did: `records` (one dict per manifest job, manifest order), `counts`
    (status -> number), `summary` (the written file paths), `interrupted`."""

    def __init__(self, records, summary, interrupted, run_failed):
        self.records, self.summary, self.interrupted = records, summary, interrupted
        self.run_failed = run_failed  # jobs of this run (this shard) that ended failed
        self.counts = {}
        for r in records:
            self.counts[r["status"]] = self.counts.get(r["status"], 0) + 1

    def __repr__(self):
        return f"BatchResult({self.counts}{', interrupted' if self.interrupted else ''})"


def default_cli():
    """The drape CLI: $DRAPE_CLI, else the one built beside this module."""
    if os.environ.get("DRAPE_CLI"):
        return os.environ["DRAPE_CLI"]
    try:
        from .._build import CLI
    except ImportError:
        CLI = None
    if CLI and os.path.exists(CLI):
        return CLI
    found = shutil.which("drape")
    if found:
        return found
    raise ManifestError("drape CLI not found: set DRAPE_CLI or pass cli=")


def engine_version(cli):
    try:
        out = subprocess.run([cli, "--version"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise ManifestError(f"{cli}: cannot run the drape CLI ({e.strerror})") from None
    if out.returncode != 0 or not out.stdout.strip():
        raise ManifestError(f"{cli}: not a drape CLI (`--version` failed)")
    return out.stdout.strip()


def default_workers(threads):
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores // max(1, threads))


def _clean_staging(out_dir, ids):
    staging = state_path(out_dir, "staging")
    if not os.path.isdir(staging):
        return
    for name in os.listdir(staging):
        if name.split(STAGING_SEP, 1)[0] in ids:
            shutil.rmtree(os.path.join(staging, name), ignore_errors=True)


def _record_from_disk(job, digest, out_dir):
    """A job's row from what OUT holds: skipped (done), failed (recorded), or pending."""
    done = read_result(out_dir, job.id)
    if done is not None and done.get("hash") == digest:
        row = {k: v for k, v in done.items() if k != "job"}
        row.update(status="skipped", line=job.line)
        return row
    try:
        with open(state_path(out_dir, "failed", f"{job.id}.json"), encoding="utf-8") as f:
            failed = json.load(f)
        if failed.get("hash") == digest:
            return dict(failed, line=job.line)
    except (OSError, ValueError):
        pass
    return {"id": job.id, "line": job.line, "status": "pending", "hash": digest}


def run(jobs, out_dir, *, workers=None, retries=2, scheduler=None, scheduler_file=None, client=None, shard=None,
        threads=1, timeout=None, cli=None, progress=None, max_line_bytes=MAX_LINE_BYTES, results="auto"):
    """Runs the manifest `jobs` (a JSON Lines or .csv path) into `out_dir`; returns a BatchResult.

    workers: local processes at once (default: cores // threads). scheduler / scheduler_file /
    client: run on Dask instead; results: "shared" (the workers write into out_dir, shared
    storage), "client" (the results come back to this process, which writes them) or "auto"
    (shared when every worker sees out_dir, else client). shard: "I/N" or (I, N). threads:
    drape threads per job (a job's settings.threads wins). timeout: seconds per attempt. retries: extra attempts after
    a transient failure. progress: None (quiet), "lines" or "bar". Raises ManifestError (bad
    manifest or options) before any job starts; KeyboardInterrupt only after a clean stop
    and a written summary (then BatchResult.interrupted is reported by the CLI as exit 130).
    """
    out_dir = os.path.abspath(os.fspath(out_dir))
    manifest = os.fspath(jobs)
    all_jobs = read_manifest(manifest, max_line_bytes)
    if retries is None or retries < 0:
        raise ManifestError(f"--retries: must be 0 or more, got {retries}")
    if threads is None or threads < 0:
        raise ManifestError(f"--threads: must be 0 or more, got {threads}")
    if timeout is not None and not timeout > 0:
        raise ManifestError(f"--timeout: must be > 0 s, got {timeout}")
    if isinstance(shard, str):
        shard = parse_shard(shard)
    mine = all_jobs if shard is None else all_jobs[shard[0]::shard[1]]
    cli = os.path.abspath(cli or default_cli())
    engine = engine_version(cli)
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise ManifestError(f"--out {out_dir}: exists and is not a folder")
    if scheduler or scheduler_file or client is not None:
        from .dask_executor import DaskExecutor

        executor = DaskExecutor(scheduler, scheduler_file, client, results)
    else:
        if results not in ("auto", "shared"):
            raise ManifestError(f"--results {results}: only with a Dask cluster (--scheduler)")
        executor = _local(workers, threads)
    os.makedirs(out_dir, exist_ok=True)
    try:
        executor.prepare(out_dir, cli, engine)  # Dask: connect, check every worker (before any job)
        return _run(executor, manifest, all_jobs, mine, out_dir, engine, threads, shard, retries, timeout, cli,
                    progress)
    finally:
        executor.close()


def _run(executor, manifest, all_jobs, mine, out_dir, engine, threads, shard, retries, timeout, cli, progress):
    """Steps 3-5 of a run (the module's docstring) on a prepared executor."""
    digests = {job.id: job_hash(job, engine, threads) for job in all_jobs}
    records = {job.id: _record_from_disk(job, digests[job.id], out_dir) for job in all_jobs}
    todo = [(job, digests[job.id]) for job in mine if records[job.id]["status"] != "skipped"]
    _clean_staging(out_dir, {job.id for job, _ in todo})
    meta = {"manifest": os.path.abspath(manifest), "out": out_dir, "engine": engine,
            "executor": executor.describe(), "shard": f"{shard[0]}/{shard[1]}" if shard else None,
            "threads_per_job": threads}
    reporter = progress_mod.make(progress, len(mine), len(mine) - len(todo), executor.describe())

    start, last_summary = time.monotonic(), [time.monotonic()]

    def summary():
        return write_summary(out_dir, [records[j.id] for j in all_jobs],
                             dict(meta, wall_s=round(time.monotonic() - start, 3)))

    def on_record(record):
        if record["status"] == "failed" and not os.path.exists(state_path(out_dir, "failed", record["id"] + ".json")):
            os.makedirs(state_path(out_dir, "failed"), exist_ok=True)
            write_atomically(state_path(out_dir, "failed", record["id"] + ".json"),
                             json.dumps(dict(record, hash=digests[record["id"]]), indent=1) + "\n")
        records[record["id"]] = dict(record, hash=digests[record["id"]])
        reporter.job_ended(records[record["id"]])
        if time.monotonic() - last_summary[0] > SUMMARY_EVERY_S:
            summary()
            last_summary[0] = time.monotonic()

    interrupted = False
    try:
        if todo:
            executor.run(todo, out_dir, cli, threads, retries, timeout, on_record)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        # Dask tasks cancelled by an interrupt may still run on their workers:
        # their staging folders are theirs; the next run's step 4 removes them.
        # Otherwise every attempt has ended (a killed worker's `drape dress` died with it).
        if not interrupted or getattr(executor, "stops_children", False):
            _clean_staging(out_dir, {job.id for job, _ in todo})
        written = summary()
        reporter.close()
    run_failed = sum(1 for j in mine if records[j.id]["status"] == "failed")
    return BatchResult([records[j.id] for j in all_jobs], written, interrupted, run_failed)


def _local(workers, threads):
    from .local_pool import LocalPool

    if workers is not None and workers < 1:
        raise ManifestError(f"--workers: must be 1 or more, got {workers}")
    return LocalPool(workers or default_workers(threads))


def exit_code(result):
    """The CLI's exit code for a finished run: 130 interrupted, 3 some job failed, else 0."""
    if result.interrupted:
        return 130
    return 3 if result.run_failed else 0


def main_errors(fn):
    """Wraps the CLI: ManifestError -> one message on stderr, exit 2."""
    try:
        return fn()
    except ManifestError as e:
        print(f"drape batch: error: {e}", file=sys.stderr)
        return 2
