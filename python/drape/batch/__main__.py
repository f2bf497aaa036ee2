"""`python3 -m drape.batch JOBS --out DIR ...`: the `drape batch` command (the C++ CLI hands over here).

Exit codes: 0 every job done or skipped, 2 bad manifest or options (nothing
ran), 3 some job failed (see summary.csv), 130 interrupted (finished jobs kept).
"""
import argparse
import sys

from .engine import exit_code, main_errors, run
from .manifest import MAX_LINE_BYTES


def parser():
    p = argparse.ArgumentParser(
        prog="drape batch",
        description="Run every job of a JSON Lines or CSV manifest (one `drape dress` per line) into OUT/<id>/; "
                    "jobs already done with the same inputs and settings are skipped (docs/BATCH.md).")
    p.add_argument("jobs", metavar="JOBS", help="manifest: one JSON object per line (id, body, pattern, "
                                                "fabric, settings, pose, frame, skeleton), or a .csv file "
                                                "with those columns (settings as columns)")
    p.add_argument("--out", required=True, help="output folder: OUT/<id>/, OUT/summary.csv, OUT/summary.json")
    p.add_argument("--workers", type=int, help="jobs at once on this machine (default: cores / threads)")
    p.add_argument("--threads", type=int, default=1,
                   help="drape threads per job (default 1; a job's settings.threads wins; results are "
                        "deterministic for a thread count, which is part of the job's hash)")
    p.add_argument("--retries", type=int, default=2,
                   help="extra attempts after a transient failure (crash, signal, internal error); default 2")
    p.add_argument("--timeout", type=float, help="seconds per attempt before the job is killed (exit class timeout)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDR", help="run on a Dask cluster: scheduler address "
                                                            "(tcp://host:8786)")
    where.add_argument("--scheduler-file", metavar="F", help="run on a Dask cluster: its scheduler file")
    p.add_argument("--results", choices=("auto", "shared", "client"), default="auto",
                   help="Dask: where results are written: shared (by the workers into OUT, shared storage), "
                        "client (returned to this process, which writes OUT; inputs are sent to the workers), "
                        "auto (default: shared when every worker sees OUT, else client)")
    p.add_argument("--shard", metavar="I/N", help="run only jobs I, I+N, I+2N, ... (0-based; e.g. "
                                                  "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)")
    p.add_argument("--drape", metavar="CLI", help="the drape executable the jobs run (default: the built one)")
    p.add_argument("--max-line-bytes", type=int, default=MAX_LINE_BYTES, help=argparse.SUPPRESS)
    p.add_argument("--quiet", action="store_true", help="no progress")
    return p


def main(argv=None):
    args = parser().parse_args(argv)

    def go():
        result = run(args.jobs, args.out, workers=args.workers, retries=args.retries, scheduler=args.scheduler,
                     scheduler_file=args.scheduler_file, shard=args.shard, threads=args.threads,
                     timeout=args.timeout, cli=args.drape, progress=None if args.quiet else "auto",
                     max_line_bytes=args.max_line_bytes, results=args.results)
        if not args.quiet:
            counts = ", ".join(f"{n} {s}" for s, n in sorted(result.counts.items()))
            print(f"drape batch: {counts}{' (interrupted)' if result.interrupted else ''}")
            for path in result.summary:
                print(f"wrote {path}")
        return exit_code(result)

    return main_errors(go)


if __name__ == "__main__":
    sys.exit(main())
