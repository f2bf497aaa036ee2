"""The embedded executor: N jobs at once on this machine, no server.

Each job is its own `drape dress` process (started and watched by one thread of
a thread pool), so a crash or a kill of one job never takes the pool down and
the pool itself needs no pickling. Ctrl-C / SIGTERM: no new job starts, the
running ones are stopped (SIGTERM, then SIGKILL after a grace period), their
staging folders removed; finished jobs stay committed.
"""
import concurrent.futures as cf
import signal
import threading

from .job import Interrupted, execute_job

GRACE_S = 5.0  # a stopped `drape dress` writes its checkpoint, then exits 130


class LocalPool:
    stops_children = True  # after run() returns or raises, no job of it is still running

    def __init__(self, workers):
        self.workers = max(1, int(workers))

    def describe(self):
        return f"local pool, {self.workers} worker(s)"

    def prepare(self, out_dir, cli, engine):
        pass

    def close(self):
        pass

    def run(self, tasks, out_dir, cli, threads, retries, timeout, on_record):
        """Runs tasks [(job, digest)]; calls on_record(record) as each ends. Raises
        KeyboardInterrupt after stopping cleanly when interrupted."""
        stop = threading.Event()
        running = _ProcessSet()
        previous = _raise_on_sigterm()
        pool = cf.ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="drape-job")
        futures, reported = [], set()
        try:
            futures = [pool.submit(execute_job, job.to_dict(), digest, out_dir, cli, threads, retries, timeout,
                                   running, stop) for job, digest in tasks]
            for fut in cf.as_completed(futures):
                reported.add(fut)
                on_record(fut.result())
        except (KeyboardInterrupt, Interrupted):
            stop.set()
            for f in futures:
                f.cancel()
            running.stop_all(GRACE_S)
            pool.shutdown(wait=True)
            # Jobs that finished while stopping are committed: report them too.
            for f in futures:
                if f not in reported and f.done() and not f.cancelled() and f.exception() is None:
                    on_record(f.result())
            raise KeyboardInterrupt from None
        finally:
            pool.shutdown(wait=True)
            _restore_sigterm(previous)


class _ProcessSet:
    """The running child processes, for stopping them all at once."""

    def __init__(self):
        self._lock = threading.Lock()
        self._procs = set()

    def add(self, proc):
        with self._lock:
            self._procs.add(proc)

    def discard(self, proc):
        with self._lock:
            self._procs.discard(proc)

    def stop_all(self, grace_s):
        with self._lock:
            procs = list(self._procs)
        for p in procs:
            try:
                p.terminate()
            except OSError:
                pass
        for p in procs:
            try:
                p.wait(timeout=grace_s)
            except Exception:
                p.kill()


def _raise_on_sigterm():
    """SIGTERM behaves as Ctrl-C (main thread only); returns the handler to restore."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum, frame):
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, handler)


def _restore_sigterm(previous):
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)
