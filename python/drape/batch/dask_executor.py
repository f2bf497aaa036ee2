"""The distributed executor: jobs as tasks on a running Dask cluster.

Two ways the results reach OUT (`results`):
- "shared": every worker runs `execute_job` (job.py), which starts `drape dress`
  and commits the result folder into OUT by a rename, so OUT, the inputs and the
  drape CLI must be at the same paths on every worker (a shared file system).
- "client": no shared storage. The client scatters each input file's bytes once
  (a Dask future), a worker runs the job in a private temporary folder and
  returns the result files, and the client commits them into OUT (remote_job.py).
  The workers need only a drape CLI of the same version (at the given path, or
  their own $DRAPE_CLI / build / PATH).
- "auto" (default): "shared" when every worker sees this run's probe file in
  OUT/.batch/ and the CLI at the client's path, else "client".
Every worker is checked before the first job is sent (exit 2 naming the worker
and the problem). A worker that dies mid-job loses its task to the scheduler,
which runs it again elsewhere (up to Dask's `distributed.scheduler.allowed-failures`,
then the job is failed with exit class `worker_lost`); a dead attempt left only a
staging folder (shared) or a temporary folder on the worker (client).

In client mode at most WINDOW_PER_WORKER tasks per worker are submitted at once
and an input's scattered copy is released when its last job has ended, so the
cluster holds the inputs of the running jobs, not of the whole manifest.
"""
import os
import subprocess
import uuid

from .errors import ManifestError
from .job import execute_job, state_path, write_atomically

RESULTS_MODES = ("auto", "shared", "client")
WINDOW_PER_WORKER = 4


def dask_available():
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _worker_check(cli, out_dir, probe):
    """Runs on each worker: what it sees of the client's set-up."""
    from .remote_job import worker_cli

    found = worker_cli(cli)
    version = None
    if found:
        try:
            version = subprocess.run([found, "--version"], capture_output=True, text=True,
                                     timeout=60).stdout.strip()
        except OSError:
            found = None
    return {
        "cli_at_path": bool(cli) and os.access(cli, os.X_OK),
        "cli": found,
        "version": version,
        "sees_out": os.path.isfile(os.path.join(out_dir, ".batch", probe)),
        "out_writable": os.path.isdir(out_dir) and os.access(out_dir, os.W_OK),
    }


def choose_results(mode, checks, cli, out_dir, engine):
    """The results mode for the worker `checks` ({worker: _worker_check()}); raises
    ManifestError naming each worker that cannot run the jobs in that mode."""
    shared_ok = all(c["cli_at_path"] and c["sees_out"] and c["out_writable"] for c in checks.values())
    if mode == "auto":
        mode = "shared" if shared_ok else "client"
    problems = []
    for w, c in sorted(checks.items()):
        p = []
        if mode == "shared":
            if not c["cli_at_path"]:
                p.append(f"no drape CLI at {cli}")
            if not c["sees_out"] or not c["out_writable"]:
                p.append(f"does not see the output folder {out_dir} (not shared storage, or not writable; "
                         "use --results client)")
        elif not c["cli"]:
            p.append(f"no drape CLI (not at {cli}; set DRAPE_CLI on the worker)")
        if c["cli"] and c["version"] != engine and not p:
            p.append(f"drape CLI {c['cli']} is '{c['version']}', the client's is '{engine}'")
        if p:
            problems.append(f"{w}: {', '.join(p)}")
    if problems:
        raise ManifestError("Dask workers cannot run the jobs: " + "; ".join(problems))
    return mode


class DaskExecutor:
    def __init__(self, scheduler=None, scheduler_file=None, client=None, results="auto"):
        if client is None and not dask_available():
            raise ManifestError("--scheduler/--scheduler-file: Dask distributed is not installed "
                                "(Debian: apt-get install python3-distributed)")
        if results not in RESULTS_MODES:
            raise ManifestError(f"--results: expected one of {', '.join(RESULTS_MODES)}, got '{results}'")
        self.scheduler, self.scheduler_file, self.client = scheduler, scheduler_file, client
        self.results = results
        self.chosen = None  # the results mode of the run, once the workers are checked

    def describe(self):
        where = f"Dask {self.scheduler or self.scheduler_file or 'client'}"
        return f"{where}, results {self.chosen}" if self.chosen else where

    def _connect(self):
        from distributed import Client

        if self.client is not None:
            return self.client, False
        try:
            if self.scheduler_file:
                return Client(scheduler_file=self.scheduler_file, timeout="30s"), True
            return Client(self.scheduler, timeout="30s"), True
        except (OSError, TimeoutError, ValueError) as e:
            raise ManifestError(f"cannot reach the Dask scheduler {self.scheduler or self.scheduler_file}: {e}") \
                from None

    def prepare(self, out_dir, cli, engine):
        """Connects and checks every worker; sets the results mode. Before any job runs."""
        self._conn = self._connect()
        client = self._conn[0]
        probe = f"probe-{uuid.uuid4().hex}"
        os.makedirs(state_path(out_dir), exist_ok=True)
        write_atomically(state_path(out_dir, probe), "drape batch: can the workers see this folder?\n")
        try:
            checks = client.run(_worker_check, cli, out_dir, probe)
        finally:
            os.remove(state_path(out_dir, probe))
        if not checks:
            raise ManifestError(f"the Dask cluster at {self.describe()} has no workers")
        self.chosen = choose_results(self.results, checks, cli, out_dir, engine)
        self.workers = len(checks)

    def close(self):
        client, owned = getattr(self, "_conn", (None, False))
        if owned:
            client.close()

    def run(self, tasks, out_dir, cli, threads, retries, timeout, on_record):
        from distributed import as_completed
        from distributed.scheduler import KilledWorker

        from .remote_job import commit_on_client, execute_job_remote, input_files

        client = self._conn[0]
        run_id = uuid.uuid4().hex[:8]
        remote = self.chosen == "client"
        pending = list(reversed(tasks))  # popped from the end: manifest order
        futures = {}
        scattered, uses = {}, {}  # path -> future; path -> jobs not yet ended
        if remote:
            for job, _ in tasks:
                for path in input_files(job).values():
                    uses[path] = uses.get(path, 0) + 1

        def submit():
            job, digest = pending.pop()
            key = f"drape-{job.id}-{run_id}"
            if not remote:
                fut = client.submit(execute_job, job.to_dict(), digest, out_dir, cli, threads, retries, timeout,
                                    key=key, pure=False)
            else:
                inputs = {}
                for k, path in input_files(job).items():
                    if path not in scattered:
                        with open(path, "rb") as f:
                            scattered[path] = client.scatter(f.read(), hash=False)
                    inputs[k] = scattered[path]
                fut = client.submit(execute_job_remote, job.to_dict(), digest, inputs, cli, threads, retries,
                                    timeout, key=key, pure=False)
            futures[fut] = (job, digest)
            return fut

        def ended(job):
            if not remote:
                return
            for path in input_files(job).values():
                uses[path] -= 1
                if uses[path] == 0:
                    scattered.pop(path, None)  # the last reference: Dask frees the copy

        window = len(pending) if not remote else max(1, self.workers * WINDOW_PER_WORKER)
        first = [submit() for _ in range(min(window, len(pending)))]
        queue = as_completed(first)
        try:
            for fut in queue:
                job, digest = futures.pop(fut)
                try:
                    value = fut.result()
                    if remote:
                        record, files = value
                        if record.get("status") == "done":
                            record = commit_on_client(out_dir, job, digest, record, files)
                    else:
                        record = value
                except KilledWorker as e:
                    record = _failed(job, "worker_lost", f"workers died running it: {e}")
                except Exception as e:  # the task itself raised (e.g. no space for staging)
                    record = _failed(job, "internal_error", f"{type(e).__name__}: {e}")
                del fut
                ended(job)
                on_record(record)
                if pending:
                    queue.add(submit())
        except KeyboardInterrupt:
            client.cancel(list(futures))
            raise


def _failed(job, exit_class, reason):
    return {"id": job.id, "line": job.line, "status": "failed", "exit_class": exit_class, "exit_code": None,
            "reason": reason, "attempts": None}
