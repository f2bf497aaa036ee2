"""Dask without shared storage: a job's inputs travel to the worker and its result
folder travels back to the client, which commits it into OUT (`--results client`).

Worker side (`execute_job_remote`): the input files' bytes (scattered by the
client, one copy per file) are written into a private temporary folder, the job
runs there exactly as in the shared mode (job.execute_job, `drape dress` in a
staging folder), and the finished folder's files come back as bytes with the
summary record; the temporary folder is always removed. The worker never
touches OUT. Client side (`commit_on_client`): the files are written into a
staging folder of OUT, batch.json (with the job as the manifest gave it) last,
and renamed into place by job._commit: the same invariants as the shared mode
(whole or absent, committed once per hash).

An SVG pattern's seams sidecar (<stem>.seams.json) is sent beside it; other
files an input may refer to are not.
"""
import json
import os
import shutil
import socket
import tempfile
import uuid

from .job import RESULT_FILE, STAGING_SEP, _commit, execute_job, state_path, write_atomically

INPUT_KEYS = ("body", "pattern", "fabric", "pose", "skeleton", "motion", "map")


SEAMS_KEY = "pattern_seams"  # an SVG pattern's <stem>.seams.json sidecar, sent beside it


def _seams_sidecar(pattern):
    return os.path.splitext(pattern)[0] + ".seams.json"


def input_files(job):
    """The files a job reads (absolute paths), by job key (a fabric preset is not a file),
    plus an SVG pattern's seams sidecar when there is one."""
    files = {}
    for key in INPUT_KEYS:
        path = getattr(job, key)
        if path and os.path.isabs(path) and os.path.isfile(path):
            files[key] = path
    if job.pattern.lower().endswith(".svg") and os.path.isfile(_seams_sidecar(job.pattern)):
        files[SEAMS_KEY] = _seams_sidecar(job.pattern)
    return files


def worker_cli(cli):
    """The drape CLI on this worker: `cli` when it is there, else the worker's own
    ($DRAPE_CLI, the build beside its drape package, PATH), or None."""
    if cli and os.access(cli, os.X_OK):
        return cli
    from .engine import default_cli
    from .errors import ManifestError

    try:
        found = default_cli()
    except ManifestError:
        return None
    return found if os.access(found, os.X_OK) else None


def execute_job_remote(job_dict, digest, inputs, cli, threads=1, retries=0, timeout=None):
    """Runs a job on a worker that does not see OUT: `inputs` {job key: bytes}. Returns
    (record, {relative file name: bytes} of the result folder, batch.json excepted;
    empty when the job failed)."""
    from .manifest import Job

    tmp = tempfile.mkdtemp(prefix=f"drape-batch-{os.getpid()}-")
    try:
        local = dict(job_dict)
        for key, data in inputs.items():
            # Each input keeps its file name, in a folder of its own (the seams sidecar beside its SVG).
            folder = os.path.join(tmp, "in", "pattern" if key == SEAMS_KEY else key)
            os.makedirs(folder, exist_ok=True)
            source = _seams_sidecar(job_dict["pattern"]) if key == SEAMS_KEY else job_dict[key]
            path = os.path.join(folder, os.path.basename(source))
            with open(path, "wb") as f:
                f.write(data)
            if key != SEAMS_KEY:
                local[key] = path
        out = os.path.join(tmp, "out")
        os.makedirs(out)
        record = execute_job(local, digest, out, worker_cli(cli) or cli, threads, retries, timeout)
        files = {}
        if record.get("status") == "done":
            folder = os.path.join(out, Job.from_dict(local).id)
            for root, _, names in os.walk(folder):
                for name in names:
                    rel = os.path.relpath(os.path.join(root, name), folder)
                    if rel != RESULT_FILE:
                        with open(os.path.join(root, name), "rb") as f:
                            files[rel] = f.read()
        record.pop("committed", None)
        return record, files
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def commit_on_client(out_dir, job, digest, record, files):
    """Writes a finished remote job's files into OUT/<id>/ (staging, batch.json last, one
    rename); returns the record with `committed` set."""
    staging = state_path(out_dir, "staging", f"{job.id}{STAGING_SEP}{socket.gethostname()}.{os.getpid()}."
                                             f"{uuid.uuid4().hex[:8]}")
    os.makedirs(staging)
    try:
        for rel, data in sorted(files.items()):
            path = os.path.normpath(os.path.join(staging, rel))
            if not path.startswith(staging + os.sep):
                raise ValueError(f"result file {rel!r} outside the job's folder")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        write_atomically(os.path.join(staging, RESULT_FILE), json.dumps(dict(record, job=job.to_dict()), indent=1)
                         + "\n")
        record = dict(record, committed=_commit(staging, out_dir, job.id, digest))
    finally:
        if os.path.isdir(staging):
            shutil.rmtree(staging, ignore_errors=True)
    try:
        os.remove(state_path(out_dir, "failed", f"{job.id}.json"))
    except FileNotFoundError:
        pass
    return record
