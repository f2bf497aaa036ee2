"""Reading and validating a batch manifest (JOBS: JSON Lines, or CSV: manifest_csv.py).

One job per line, a JSON object:

    {"id": "skirt_a", "body": "bodies/base.obj", "pattern": "skirt.json",
     "fabric": "cotton", "settings": {"particle_distance_mm": 40, "max_frames": 200},
     "pose": "walk.bvh", "frame": 12}

Required: id, body, pattern. Optional: fabric (a preset name or a .json file),
settings (the keyword arguments of `drape.dress`, the options of `drape dress`),
pose + frame (+ skeleton): a BVH frame as `drape dress --pose M --frame K`;
motion (+ frames "A:B", map, skeleton): a `drape animate` job instead of `dress`.
Relative paths are relative to the manifest's folder. Blank lines are skipped.

The whole manifest is validated before any job starts (invariant: a batch
either starts with every job well formed or does not start at all); every
problem is reported as "FILE:LINE: message". Lines longer than `max_line_bytes`
are refused without being read into memory.
"""
import json
import os
import re

from .errors import ManifestError

MAX_LINE_BYTES = 1 << 20  # 1 MiB: a job line is a few hundred bytes
MAX_ERRORS = 20  # more than this and the rest of the file is not worth listing

# id: becomes a folder name, so no separators, no leading dot, bounded length.
ID_PATTERN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+=-]{0,127}$")

JOB_KEYS = {"id", "body", "pattern", "fabric", "settings", "pose", "frame", "skeleton", "motion", "frames", "map"}
PATH_KEYS = ("body", "pattern", "pose", "skeleton", "motion", "map")
ANIMATE_KEYS = ("motion", "frames", "map")  # a job with a motion is a `drape animate` job
FRAMES_PATTERN = re.compile(r"^\d+:\d+$")  # `drape animate --frames A:B`

# settings key -> (type check, `drape dress` option). Booleans map to flags.
_NUM = (int, float)
SETTINGS = {
    "particle_distance_mm": (_NUM, "--particle-distance"),
    "coarse_distance_mm": (_NUM, "--coarse-distance"),
    "max_frames": (int, "--max-frames"),
    "integrator": (str, "--integrator"),
    "mesh_method": (str, "--mesh-method"),
    "substeps": (int, "--substeps"),
    "iterations": (int, "--iterations"),
    "closed_iterations": (int, "--closed-iterations"),
    "sewing_iterations": (int, "--sewing-iterations"),
    "thickness": (_NUM, "--thickness"),
    "self_collision": (bool, "--no-self-collision"),  # false -> the flag
    "strict": (bool, "--strict"),
    "grade": (bool, "--grade"),
    "ease": (_NUM, "--ease"),
    "render": (bool, "--no-render"),  # false -> the flag
    "aliases": (dict, "--alias"),
    "skinning": (str, "--skinning"),
    "pose_frames": (int, "--pose-frames"),
    "group": (str, "--group"),
    "unit": (str, "--unit"),
    "up": (str, "--up"),
    "front": (str, "--front"),
    "threads": (int, "--threads"),  # drape's global option, before `dress`
    # `drape animate` only (jobs with a motion):
    "fps": (_NUM, "--fps"),
    "blend_frames": (int, "--blend-frames"),
    "settle_frames": (int, "--settle-frames"),
    "step_motion": (_NUM, "--step-motion"),
    "max_substeps": (int, "--max-substeps"),
    "sheet_frames": (int, "--sheet-frames"),
}
ANIMATE_ONLY = {"fps", "blend_frames", "settle_frames", "step_motion", "max_substeps", "sheet_frames"}
# `drape dress` options that `drape animate` does not have.
DRESS_ONLY = {"iterations", "closed_iterations", "sewing_iterations", "strict", "grade", "ease", "render", "aliases",
              "pose_frames"}


class Job:
    """One validated job: absolute paths, settings as given (JSON types)."""

    __slots__ = ("id", "line", "body", "pattern", "fabric", "settings", "pose", "frame", "skeleton", "motion",
                 "frames", "map")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))

    def to_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}

    @classmethod
    def from_dict(cls, d):
        return cls(**d)

    @property
    def command(self):
        """The drape command the job runs: "animate" (it has a motion) or "dress"."""
        return "animate" if self.motion is not None else "dress"

    def dress_args(self, out_dir, threads=None):
        """The `drape` command-line arguments (after the executable) of this job into `out_dir`:
        `dress`, or `animate` for a job with a motion."""
        s = dict(self.settings)
        t = s.pop("threads", threads)
        args = ["--threads", str(t)] if t is not None else []
        args += [self.command, "--body", self.body, "--pattern", self.pattern, "--out", out_dir, "--quiet"]
        if self.fabric is not None:
            args += ["--fabric", self.fabric]
        if self.pose is not None:
            args += ["--pose", self.pose, "--frame", str(self.frame or 0)]
        if self.motion is not None:
            args += ["--motion", self.motion]
            if self.frames is not None:
                args += ["--frames", self.frames]
            if self.map is not None:
                args += ["--map", self.map]
        if self.skeleton is not None:
            args += ["--skeleton", self.skeleton]
        for key in sorted(s):
            value, option = s[key], SETTINGS[key][1]
            if key in ("self_collision", "render"):
                if not value:
                    args.append(option)
            elif key in ("strict", "grade"):
                if value:
                    args.append(option)
            elif key == "aliases":
                for panel in sorted(value):
                    args += [option, f"{panel}={value[panel]}"]
            else:
                args += [option, repr(value) if isinstance(value, float) else str(value)]
        return args


def _type_ok(value, kind):
    if kind is bool:
        return isinstance(value, bool)
    if isinstance(value, bool):  # JSON true is not a number here
        return False
    return isinstance(value, kind)


def check_settings(settings, command="dress"):
    """Raises ValueError naming the first bad key of a job's settings object (`command`:
    "dress", or "animate" for a job with a motion)."""
    if not isinstance(settings, dict):
        raise ValueError(f"settings: expected an object, got {type(settings).__name__}")
    for key, value in settings.items():
        if key not in SETTINGS:
            raise ValueError(f"settings: unknown key '{key}' (known: {', '.join(sorted(SETTINGS))})")
        if command == "dress" and key in ANIMATE_ONLY:
            raise ValueError(f"settings.{key}: only for animate jobs (a job with a motion)")
        if command == "animate" and key in DRESS_ONLY:
            raise ValueError(f"settings.{key}: not an option of `drape animate` (a job with a motion)")
        kind = SETTINGS[key][0]
        if not _type_ok(value, kind):
            raise ValueError(f"settings.{key}: wrong type {type(value).__name__} ({value!r})")
        if kind is _NUM and not (value == value and abs(value) != float("inf")):
            raise ValueError(f"settings.{key}: not a finite number")
        if key == "aliases" and not all(isinstance(k, str) and isinstance(v, str) and k and v
                                        for k, v in value.items()):
            raise ValueError("settings.aliases: expected {\"PANEL\": \"ALIAS\", ...} strings")


def _check_job(obj, base_dir):
    """A Job from one parsed line, or raises ValueError with the message for that line."""
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - JOB_KEYS)
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(repr(k) for k in unknown)} "
                         f"(known: {', '.join(sorted(JOB_KEYS))})")
    for key in ("id", "body", "pattern"):
        if key not in obj:
            raise ValueError(f"missing required key '{key}'")
    job_id = obj["id"]
    if not isinstance(job_id, str) or not ID_PATTERN.match(job_id):
        raise ValueError(f"id {job_id!r}: expected 1-128 characters of letters, digits, _ . + = -, "
                         "not starting with '.' or '-'")
    paths = {}
    for key in PATH_KEYS:
        if key not in obj:
            continue
        value = obj[key]
        if not isinstance(value, str) or not value:
            raise ValueError(f"{key}: expected a file path, got {value!r}")
        path = os.path.normpath(os.path.join(base_dir, value))
        if not os.path.isfile(path):
            raise ValueError(f"{key}: no such file '{value}' ({path})")
        paths[key] = path
    fabric = obj.get("fabric")
    if fabric is not None:
        if not isinstance(fabric, str) or not fabric:
            raise ValueError(f"fabric: expected a preset name or a .json file, got {fabric!r}")
        if fabric.lower().endswith(".json") or os.sep in fabric:
            path = os.path.normpath(os.path.join(base_dir, fabric))
            if not os.path.isfile(path):
                raise ValueError(f"fabric: no such file '{fabric}' ({path})")
            fabric = path
    if "frame" in obj:
        if "pose" not in obj:
            raise ValueError("frame: given without a pose")
        if not _type_ok(obj["frame"], int) or obj["frame"] < 0:
            raise ValueError(f"frame: expected an integer >= 0, got {obj['frame']!r}")
    if "skeleton" in obj and "pose" not in obj:
        raise ValueError("skeleton: given without a pose")
    if "motion" in obj:
        if "pose" in obj:
            raise ValueError("pose: a job has a pose (dress) or a motion (animate), not both")
        frames = obj.get("frames")
        if frames is not None and (not isinstance(frames, str) or not FRAMES_PATTERN.match(frames)
                                   or int(frames.split(":")[0]) > int(frames.split(":")[1])):
            raise ValueError(f"frames: expected \"A:B\" (0-based, A <= B), got {frames!r}")
    else:
        for key in ("frames", "map"):
            if key in obj:
                raise ValueError(f"{key}: given without a motion")
    settings = obj.get("settings", {})
    check_settings(settings, "animate" if "motion" in obj else "dress")
    return Job(id=job_id, body=paths["body"], pattern=paths["pattern"], fabric=fabric, settings=settings,
               pose=paths.get("pose"), frame=obj.get("frame"), skeleton=paths.get("skeleton"),
               motion=paths.get("motion"), frames=obj.get("frames"), map=paths.get("map"))


def _lines(f, max_line_bytes):
    """(line number, bytes or None when too long) for every line of binary file `f`."""
    number = 0
    while True:
        chunk = f.readline(max_line_bytes + 1)
        if not chunk:
            return
        number += 1
        if len(chunk) > max_line_bytes and not chunk.endswith(b"\n"):
            # Too long: skip to the end of the line without keeping it.
            while chunk and not chunk.endswith(b"\n"):
                chunk = f.readline(1 << 20)
            yield number, None
        else:
            yield number, chunk


def _jsonl_objects(path, f, max_line_bytes):
    """(line number, parsed object or None, error or None) for every non-blank JSON Lines line."""
    for number, raw in _lines(f, max_line_bytes):
        if raw is None:
            yield number, None, f"line longer than {max_line_bytes} bytes"
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            yield number, None, f"not UTF-8 ({e.reason} at byte {e.start})"
            continue
        if not text.strip():
            continue
        try:
            yield number, json.loads(text), None
        except json.JSONDecodeError as e:
            yield number, None, f"not JSON ({e.msg} at column {e.colno})"


def is_csv(path):
    """A manifest is CSV when its name ends in .csv (any case); JSON Lines otherwise."""
    return os.fspath(path).lower().endswith(".csv")


def read_manifest(path, max_line_bytes=MAX_LINE_BYTES):
    """The jobs of manifest `path` (JSON Lines, or CSV when named *.csv) in file order;
    raises ManifestError listing every bad line."""
    from .manifest_csv import csv_objects

    path = os.fspath(path)
    base_dir = os.path.dirname(os.path.abspath(path))
    jobs, errors, seen = [], [], {}
    try:
        f = open(path, "rb")
    except OSError as e:
        raise ManifestError(f"{path}: cannot read the manifest ({e.strerror})") from None
    objects = csv_objects(_lines(f, max_line_bytes), max_line_bytes) if is_csv(path) else \
        _jsonl_objects(path, f, max_line_bytes)
    with f:
        for number, obj, error in objects:
            if len(errors) >= MAX_ERRORS:
                errors.append(f"{path}: more errors not listed")
                break
            where = f"{path}:{number}"
            if error is not None:
                errors.append(f"{where}: {error}")
                continue
            try:
                job = _check_job(obj, base_dir)
            except ValueError as e:
                errors.append(f"{where}: {e}")
                continue
            if job.id in seen:
                errors.append(f"{where}: duplicate id '{job.id}' (first on line {seen[job.id]})")
                continue
            seen[job.id] = number
            job.line = number
            jobs.append(job)
    if errors:
        raise ManifestError("\n".join(errors))
    if not jobs:
        what = "a header line and one row per job" if is_csv(path) else "one JSON object per line"
        raise ManifestError(f"{path}: no jobs (expected {what})")
    return jobs


def parse_shard(text):
    """'I/N' -> (I, N) with 0 <= I < N (Slurm: --array=0-(N-1), I = $SLURM_ARRAY_TASK_ID)."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not m:
        raise ManifestError(f"--shard: expected I/N (e.g. 0/4), got '{text}'")
    i, n = int(m.group(1)), int(m.group(2))
    if n < 1 or i >= n:
        raise ManifestError(f"--shard: need 0 <= I < N, got {i}/{n}")
    return i, n
