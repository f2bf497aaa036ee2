"""One batch job on a worker: `drape dress` in a subprocess, committed by a rename.

Shared by every executor (the local pool calls `execute_job` in a thread, Dask
on a worker process), so it needs only the standard library and the drape CLI.

Invariants:
- A result folder OUT/<id>/ appears only complete: the job runs in a staging
  folder OUT/.batch/staging/<id>.<unique>/ on the same file system, gets its
  batch.json (the content hash of inputs + settings) last, and is renamed into
  place. A killed run leaves at most a staging folder, never a partial OUT/<id>/.
- A job is committed at most once: when OUT/<id>/ already holds a result with the
  same hash (another attempt of the same job got there first, e.g. a task Dask ran
  twice), this attempt's output is discarded.
- The child `drape dress` dies with the thread that started it (setpriv
  --pdeathsig), so a worker killed mid-job leaves no orphan simulation behind.
"""
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import uuid

STATE_DIR = ".batch"  # OUT/.batch/{staging,failed,trash}
RESULT_FILE = "batch.json"  # in OUT/<id>/: the job, its hash, how it ran
LOG_FILE = "log.txt"  # in OUT/<id>/: drape's stdout and stderr
STAGING_SEP = "~"  # OUT/.batch/staging/<id>~<host>.<pid>.<random>: never in an id

# Exit classes of a failed attempt; the transient ones are retried.
EXIT_CLASSES = {1: "internal_error", 2: "bad_input", 3: "simulation_failed", 130: "interrupted"}
TRANSIENT = {"internal_error", "killed", "launch_failed", "worker_lost"}

_SETPRIV = shutil.which("setpriv")


def write_atomically(path, text):
    """Writes `text` to `path` through a temporary file in the same folder and a rename."""
    tmp = f"{path}.tmp.{os.getpid()}.{uuid.uuid4().hex[:8]}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def file_sha256(path, _cache={}):
    """SHA-256 of a file's bytes, cached per (path, size, mtime) within a process."""
    st = os.stat(path)
    key = (path, st.st_size, st.st_mtime_ns)
    if key not in _cache:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _cache[key] = h.hexdigest()
    return _cache[key]


def job_hash(job, engine, threads):
    """Content hash of what decides a job's result: input bytes, fabric, pose, settings,
    the thread count the job runs with and the engine version. Paths are not part of it,
    so moving the data keeps results valid."""
    settings = dict(job.settings)
    settings["threads"] = settings.get("threads", threads)
    fabric = job.fabric
    if fabric is not None and os.path.isfile(fabric):
        fabric = {"file_sha256": file_sha256(fabric)}
    key = {
        "engine": engine,
        "body": file_sha256(job.body),
        "pattern": file_sha256(job.pattern),
        "fabric": fabric,
        "pose": file_sha256(job.pose) if job.pose else None,
        "frame": job.frame,
        "skeleton": file_sha256(job.skeleton) if job.skeleton else None,
        "settings": settings,
    }
    if job.motion is not None:  # only for animate jobs: dress jobs keep the hashes they had
        key.update(motion=file_sha256(job.motion), frames=job.frames,
                   map=file_sha256(job.map) if job.map else None)
    return hashlib.sha256(json.dumps(key, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def read_result(out_dir, job_id):
    """The batch.json of OUT/<id>/ as a dict, or None when there is no complete result."""
    try:
        with open(os.path.join(out_dir, job_id, RESULT_FILE), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def state_path(out_dir, *parts):
    return os.path.join(out_dir, STATE_DIR, *parts)


def report_fields(report):
    """The summary columns taken from a report.json: of `drape dress`, or of `drape animate`
    (stop reason, seams and strain of the rest drape; frames, crossings and inside vertices
    of the animation's worst frame, frames = the cached motion frames)."""
    if isinstance(report, dict) and "rest_drape" in report:
        fields = report_fields({"result": report["rest_drape"]})
        summary = report.get("summary", {}) if isinstance(report.get("summary"), dict) else {}
        worst = summary.get("worst", {}) if isinstance(summary.get("worst"), dict) else {}
        fields.update(frames=summary.get("cache_frames"), vertices_inside=worst.get("vertices_inside_body"),
                      body_crossings=worst.get("body_crossing_pairs"),
                      self_crossings=worst.get("self_crossing_pairs"))
        return fields
    r = report.get("result", {}) if isinstance(report, dict) else {}
    seams = r.get("seams", {}) if isinstance(r.get("seams"), dict) else {}
    inter = r.get("intersections", {}) if isinstance(r.get("intersections"), dict) else {}
    strain = r.get("strain", {}) if isinstance(r.get("strain"), dict) else {}
    return {
        "stop_reason": r.get("stop_reason"),
        "frames": r.get("frames"),
        "seams_joined": seams.get("joined"),
        "seams_total": seams.get("pairs"),
        "vertices_inside": inter.get("vertices_inside_body"),
        "body_crossings": inter.get("body_crossing_pairs"),
        "self_crossings": inter.get("self_crossing_pairs"),
        "strain_max": strain.get("max"),
        "strain_p99": strain.get("p99"),
    }


class Interrupted(Exception):
    """The batch is stopping (Ctrl-C / SIGTERM): the job was stopped, not failed."""


def _exit_class(code):
    if code < 0:
        try:
            return "killed", f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return "killed", f"killed by signal {-code}"
    return EXIT_CLASSES.get(code, "internal_error"), f"exit code {code}"


def _last_lines(text, n=3):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[-n:])


def _run_attempt(job, out_dir, cli, threads, timeout, running):
    """One `drape dress` into a fresh staging folder: (staging, returncode, output, wall, timed_out)."""
    staging = state_path(out_dir, "staging", f"{job.id}{STAGING_SEP}{socket.gethostname()}.{os.getpid()}."
                                             f"{uuid.uuid4().hex[:8]}")
    os.makedirs(staging)
    cmd = [cli] + job.dress_args(staging, threads)
    if _SETPRIV:
        cmd = [_SETPRIV, "--pdeathsig", "KILL", "--"] + cmd
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if running is not None:
        running.add(proc)
    timed_out = False
    try:
        try:
            output, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            proc.kill()
            output, _ = proc.communicate()
    finally:
        if running is not None:
            running.discard(proc)
    return staging, proc.returncode, output.decode("utf-8", "replace"), time.monotonic() - start, timed_out


def _commit(staging, out_dir, job_id, digest):
    """Renames staging to OUT/<id>; False when an attempt with the same hash got there first."""
    final = os.path.join(out_dir, job_id)
    try:
        os.rename(staging, final)
        _log_commit(out_dir, job_id, digest)
        return True
    except OSError:
        pass  # OUT/<id> exists (not empty): the same job done, or an older result
    existing = read_result(out_dir, job_id)
    if existing is not None and existing.get("hash") == digest:
        shutil.rmtree(staging, ignore_errors=True)
        return False
    # An older result (other inputs or settings), or a stray folder: replace it.
    trash = state_path(out_dir, "trash", f"{job_id}{STAGING_SEP}{uuid.uuid4().hex[:8]}")
    os.makedirs(os.path.dirname(trash), exist_ok=True)
    os.rename(final, trash)
    os.rename(staging, final)
    _log_commit(out_dir, job_id, digest)
    shutil.rmtree(trash, ignore_errors=True)
    return True


def _log_commit(out_dir, job_id, digest):
    """Appends a line to OUT/.batch/commits.log per committed result (an audit trail:
    one line per job and hash when nothing ran twice)."""
    line = f"{job_id} {digest} {socket.gethostname()} {os.getpid()} {time.time():.3f}\n"
    fd = os.open(state_path(out_dir, "commits.log"), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


def execute_job(job_dict, digest, out_dir, cli, threads=1, retries=0, timeout=None, running=None,
                stop=None):
    """Runs a job until done or out of attempts; returns its summary record (a dict).

    `running` (a set) and `stop` (a threading.Event) are the local pool's handles for
    Ctrl-C; Dask passes neither. Transient failures (crash, signal, internal error) are
    retried up to `retries` more times; bad input and failed simulations are not.
    """
    from .manifest import Job  # local: keeps this module's import cheap on Dask workers

    job = Job.from_dict(job_dict)
    failed_record = state_path(out_dir, "failed", f"{job.id}.json")
    record = {"id": job.id, "line": job.line, "hash": digest, "host": socket.gethostname(), "pid": os.getpid()}
    attempts = 0
    while True:
        if stop is not None and stop.is_set():
            raise Interrupted(job.id)
        attempts += 1
        staging, code, output, wall, timed_out = _run_attempt(job, out_dir, cli, threads, timeout, running)
        if code == 0 and not timed_out:
            try:
                with open(os.path.join(staging, "report.json"), encoding="utf-8") as f:
                    report = json.load(f)
            except (OSError, ValueError) as e:
                code, output = 1, output + f"\nbatch: report.json unreadable: {e}"
        if code == 0 and not timed_out:
            record.update(status="done", exit_class="", exit_code=0, reason="", wall_s=round(wall, 3),
                          attempts=attempts, **report_fields(report))
            write_atomically(os.path.join(staging, LOG_FILE), output)
            write_atomically(os.path.join(staging, RESULT_FILE),
                             json.dumps(dict(record, job=job.to_dict()), indent=1) + "\n")
            record["committed"] = _commit(staging, out_dir, job.id, digest)
            try:
                os.remove(failed_record)
            except FileNotFoundError:
                pass
            return record
        shutil.rmtree(staging, ignore_errors=True)
        if timed_out:
            exit_class, reason = "timeout", f"over the {timeout} s limit"
        else:
            exit_class, reason = _exit_class(code)
        if stop is not None and stop.is_set():
            raise Interrupted(job.id)
        detail = _last_lines(output)
        record.update(status="failed", exit_class=exit_class, exit_code=code,
                      reason=f"{reason}: {detail}" if detail else reason, wall_s=round(wall, 3),
                      attempts=attempts)
        if exit_class in TRANSIENT and attempts <= retries:
            continue
        os.makedirs(os.path.dirname(failed_record), exist_ok=True)
        write_atomically(failed_record, json.dumps(record, indent=1) + "\n")
        return record
