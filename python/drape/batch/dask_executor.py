"""The distributed executor: jobs as tasks on a running Dask cluster.

Every worker runs `execute_job` (job.py), which starts `drape dress` and commits
the result folder by a rename, so the output folder, the inputs and the drape
CLI must be at the same paths on every worker (a shared file system); that is
checked on every worker before the first job is sent. A worker that dies
mid-job loses its task to the scheduler, which runs it again elsewhere (up to
Dask's `distributed.scheduler.allowed-failures`, then the job is failed with
exit class `worker_lost`); the dead attempt left only a staging folder.
"""
import os
import uuid

from .errors import ManifestError
from .job import execute_job


def dask_available():
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _worker_check(cli, out_dir):
    """Runs on each worker: what it cannot see of the shared set-up (empty when fine)."""
    problems = []
    if not os.access(cli, os.X_OK):
        problems.append(f"no drape CLI at {cli}")
    if not os.path.isdir(out_dir) or not os.access(out_dir, os.W_OK):
        problems.append(f"output folder {out_dir} missing or not writable")
    return problems


class DaskExecutor:
    def __init__(self, scheduler=None, scheduler_file=None, client=None):
        if client is None and not dask_available():
            raise ManifestError("--scheduler/--scheduler-file: Dask distributed is not installed "
                                "(Debian: apt-get install python3-distributed)")
        self.scheduler, self.scheduler_file, self.client = scheduler, scheduler_file, client

    def describe(self):
        return f"Dask {self.scheduler or self.scheduler_file or 'client'}"

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

    def run(self, tasks, out_dir, cli, threads, retries, timeout, on_record):
        from distributed import as_completed
        from distributed.scheduler import KilledWorker

        client, owned = self._connect()
        try:
            checks = client.run(_worker_check, cli, out_dir)
            bad = {w: p for w, p in checks.items() if p}
            if not checks:
                raise ManifestError(f"the Dask cluster at {self.describe()} has no workers")
            if bad:
                raise ManifestError("Dask workers cannot see the shared set-up: " +
                                    "; ".join(f"{w}: {', '.join(p)}" for w, p in sorted(bad.items())))
            run_id = uuid.uuid4().hex[:8]
            futures = {}
            for job, digest in tasks:
                fut = client.submit(execute_job, job.to_dict(), digest, out_dir, cli, threads, retries, timeout,
                                    key=f"drape-{job.id}-{run_id}", pure=False)
                futures[fut] = job
            try:
                for fut in as_completed(list(futures)):
                    job = futures[fut]
                    try:
                        record = fut.result()
                    except KilledWorker as e:
                        record = _failed(job, "worker_lost", f"workers died running it: {e}")
                    except Exception as e:  # the task itself raised (e.g. no space for staging)
                        record = _failed(job, "internal_error", f"{type(e).__name__}: {e}")
                    on_record(record)
            except KeyboardInterrupt:
                client.cancel(list(futures))
                raise
        finally:
            if owned:
                client.close()


def _failed(job, exit_class, reason):
    return {"id": job.id, "line": job.line, "status": "failed", "exit_class": exit_class, "exit_code": None,
            "reason": reason, "attempts": None}
