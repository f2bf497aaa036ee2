"""`python3 -m drape.dataset --patterns P... --count N --out JOBS ...`: the `drape dataset`
command (the C++ CLI hands over here). Exit codes: 0 written, 2 bad arguments
(nothing written), 1 `drape body` failed."""
import argparse
import json
import sys

from .bodies import BodyError
from .generate import FABRIC_PRESETS, DatasetError, generate
from .sampling import DEFAULT_RANGES, MACROS


def _setting(text):
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got '{text}'")
    try:
        return key, json.loads(value)  # 30 -> int, true -> bool, "x" -> str
    except json.JSONDecodeError:
        return key, value  # a bare word: a string (integrator=xpbd)


def parser():
    p = argparse.ArgumentParser(
        prog="drape dataset",
        description="Sample patterns, body shapes, fabrics and poses into a `drape batch` manifest. Job i is "
                    "drawn from its own generator seeded by (--seed, i): the same arguments write the same "
                    "bytes, and a larger --count keeps the first jobs (docs/BATCH.md).")
    p.add_argument("--patterns", nargs="+", required=True, metavar="P",
                   help="pattern files or folders (every *.json inside, recursively; *.seams.json skipped)")
    p.add_argument("--count", type=int, required=True, help="number of jobs")
    p.add_argument("--out", required=True, metavar="JOBS",
                   help="the manifest to write: .jsonl (JSON Lines) or .csv; JOBS' stem + .dataset.json beside "
                        "it holds each job's choices (macro values, body measures)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    for name in MACROS:
        lo, hi = DEFAULT_RANGES[name]
        p.add_argument(f"--{name}", metavar="LO:HI", help=f"`drape body --{name}` range, or one value "
                                                          f"(default {lo:g}:{hi:g})")
    p.add_argument("--body-count", type=int, metavar="K",
                   help="draw the jobs' bodies from a pool of K macro bodies (default: a body per job)")
    p.add_argument("--bodies-dir", metavar="DIR", help="where the macro bodies are made and reused "
                                                       "(default: JOBS' folder/bodies)")
    p.add_argument("--body", nargs="+", action="extend", metavar="B",
                   help="fixed body files or folders (.obj/.glb/.gltf) instead of macro bodies")
    p.add_argument("--fabric", nargs="+", action="extend", metavar="F",
                   help=f"fabric presets or .json files to draw from (default: {' '.join(FABRIC_PRESETS)})")
    p.add_argument("--pose", nargs="+", action="extend", metavar="M",
                   help="BVH motions (files or folders) to pose the bodies with (`drape dress --pose --frame`)")
    p.add_argument("--frames", metavar="A:B", help="frames of the motions to draw from (default: all)")
    p.add_argument("--pose-share", type=float, default=1.0, help="share of the jobs that are posed (default 1)")
    p.add_argument("--skeleton", help="`drape dress --skeleton` for posed jobs")
    p.add_argument("--setting", type=_setting, action="append", default=[], metavar="KEY=VALUE",
                   help="a `drape dress` setting of every job, as a batch manifest's settings key "
                        "(e.g. particle_distance_mm=30, render=false); repeatable")
    p.add_argument("--jobs", type=int, help="bodies made at once (default: cores)")
    p.add_argument("--drape", metavar="CLI", help="the drape executable (default: the built one)")
    p.add_argument("--quiet", action="store_true")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    ranges = {name: getattr(args, name) for name in MACROS if getattr(args, name) is not None}
    settings = {}
    for key, value in args.setting:
        if key in settings:
            print(f"drape dataset: error: --setting {key} given twice", file=sys.stderr)
            return 2
        settings[key] = value
    try:
        ds = generate(args.out, patterns=args.patterns, count=args.count, seed=args.seed, bodies=args.body,
                      ranges=ranges, body_count=args.body_count, bodies_dir=args.bodies_dir,
                      fabrics=args.fabric, poses=args.pose, frames=args.frames, pose_share=args.pose_share,
                      skeleton=args.skeleton, settings=settings, cli=args.drape, jobs=args.jobs)
    except DatasetError as e:
        print(f"drape dataset: error: {e}", file=sys.stderr)
        return 2
    except BodyError as e:
        print(f"drape dataset: error: making a body failed: {e}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"drape dataset: {len(ds.jobs)} job(s), {ds.bodies_made} body file(s) made")
        print(f"wrote {ds.manifest}")
        print(f"wrote {ds.sidecar}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
