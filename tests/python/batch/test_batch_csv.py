"""CSV manifests: the same jobs as JSON Lines, as a table (python/drape/batch/manifest_csv.py).

Independent answer: a CSV row and the JSON line written by hand for the same
job must give the same Job (paths, typed settings) and the same content hash,
so a batch run from the CSV is skipped entirely by the JSON Lines manifest;
bad tables exit 2 with FILE:LINE before any job starts.
"""
import json

import pytest

import drape.batch
from drape.batch.job import job_hash
from test_batch import FAKE, by_id


def write_inputs(tmp_path):
    (tmp_path / "body.obj").write_text("v 0 0 0\n")
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.json").write_text(f"ok\n{name}\n")
    (tmp_path / "walk.bvh").write_text("HIERARCHY\n")


CSV = """id,body,pattern,fabric,particle_distance_mm,max_frames,render,strict,integrator,pose,frame,settings
a,body.obj,a.json,silk,40,12,false,,,,,
b,body.obj,b.json,,37.5,,TRUE,yes,xpbd,walk.bvh,7,"{""aliases"": {""front"": ""torso_front""}}"
c,body.obj,c.json,cotton,,,,,,,,
"""
JSONL = [
    {"id": "a", "body": "body.obj", "pattern": "a.json", "fabric": "silk",
     "settings": {"particle_distance_mm": 40, "max_frames": 12, "render": False}},
    {"id": "b", "body": "body.obj", "pattern": "b.json", "pose": "walk.bvh", "frame": 7,
     "settings": {"particle_distance_mm": 37.5, "render": True, "strict": True, "integrator": "xpbd",
                  "aliases": {"front": "torso_front"}}},
    {"id": "c", "body": "body.obj", "pattern": "c.json", "fabric": "cotton"},
]


def test_csv_rows_are_the_json_lines_jobs(tmp_path):
    write_inputs(tmp_path)
    (tmp_path / "jobs.csv").write_text(CSV)
    (tmp_path / "jobs.jsonl").write_text("".join(json.dumps(j) + "\n" for j in JSONL))
    from_csv = drape.batch.read_manifest(tmp_path / "jobs.csv")
    from_jsonl = drape.batch.read_manifest(tmp_path / "jobs.jsonl")
    assert [j.line for j in from_csv] == [2, 3, 4]
    for c, j in zip(from_csv, from_jsonl):
        assert dict(c.to_dict(), line=None) == dict(j.to_dict(), line=None)
        assert job_hash(c, "e", 1) == job_hash(j, "e", 1)
        assert c.dress_args("OUT") == j.dress_args("OUT")
    assert type(from_csv[0].settings["particle_distance_mm"]) is int  # 40, not 40.0: same hash, same CLI text
    # Run from the CSV; the JSON Lines manifest then finds every job done (same hashes).
    out = tmp_path / "out"
    first = drape.batch.run(tmp_path / "jobs.csv", out, cli=str(FAKE), workers=2)
    assert first.counts == {"done": 3}
    assert {r["id"]: r["line"] for r in first.records} == {"a": 2, "b": 3, "c": 4}
    again = drape.batch.run(tmp_path / "jobs.jsonl", out, cli=str(FAKE))
    assert {k: v["status"] for k, v in by_id(again).items()} == {"a": "skipped", "b": "skipped", "c": "skipped"}


def test_csv_written_by_the_generator_reads_back(tmp_path):
    from drape.batch.manifest_csv import csv_text

    write_inputs(tmp_path)
    (tmp_path / "w.csv").write_text(csv_text(JSONL))
    header = (tmp_path / "w.csv").read_text().splitlines()[0]
    assert header == ("id,body,pattern,fabric,pose,frame,integrator,max_frames,particle_distance_mm,render,strict,"
                      "settings")
    back = drape.batch.read_manifest(tmp_path / "w.csv")
    (tmp_path / "j.jsonl").write_text("".join(json.dumps(j) + "\n" for j in JSONL))
    assert [dict(j.to_dict(), line=0) for j in back] == \
        [dict(j.to_dict(), line=0) for j in drape.batch.read_manifest(tmp_path / "j.jsonl")]


HEADER = "id,body,pattern,max_frames,render,settings"


@pytest.mark.parametrize("header, row, where, message", ids=[
    "unknown_column", "missing_column", "column_twice", "field_count", "bad_int", "bad_bool", "setting_twice",
    "unknown_setting", "settings_not_object", "quote_spans_lines", "no_file", "duplicate", "aliases_column",
    "long_line"], argvalues=[
    ("id,body,pattern,colour", "b,body.obj,a.json,red", 1, "header: unknown column 'colour'"),
    ("id,body,max_frames", "b,body.obj,5", 1, "header: missing required column(s) pattern"),
    ("id,body,pattern,id", "b,body.obj,a.json,b", 1, "header: column 'id' twice"),
    (HEADER, "b,body.obj,a.json,5", 3, "expected 6 fields (the header's), got 4"),
    (HEADER, "b,body.obj,a.json,ten,,", 3, "max_frames: expected an integer, got 'ten'"),
    (HEADER, "b,body.obj,a.json,,maybe,", 3, "render: expected true or false, got 'maybe'"),
    (HEADER, 'b,body.obj,a.json,5,,"{""max_frames"": 6}"', 3,
     "settings: max_frames given both as a column and in the settings column"),
    (HEADER, 'b,body.obj,a.json,,,"{""nope"": 1}"', 3, "settings: unknown key 'nope'"),
    (HEADER, 'b,body.obj,a.json,,,"[1]"', 3, "settings: expected a JSON object"),
    (HEADER, 'b,body.obj,"a.json,,,', 3, "not CSV (unexpected end of data; a job must fit on one line)"),
    (HEADER, "b,nobody.obj,a.json,,,", 3, "body: no such file 'nobody.obj'"),
    (HEADER, "a,body.obj,a.json,,,", 3, "duplicate id 'a' (first on line 2)"),
    ("id,body,pattern,aliases", "b,body.obj,a.json,x=y", 3, "aliases: give it in the settings column as JSON"),
    (HEADER, "b,body.obj,a.json,,," + "x" * 1_500_000, 3, "line longer than 1048576 bytes"),
])
def test_bad_csv_exits_2_naming_the_line(tmp_path, cli, header, row, where, message):
    from conftest import run_batch_cli

    write_inputs(tmp_path)
    manifest = tmp_path / "jobs.csv"
    first = ",".join("a" if h == "id" else "body.obj" if h == "body" else "a.json" if h == "pattern" else ""
                     for h in header.split(","))
    manifest.write_text("\n".join([header, first, row]) + "\n")
    out = tmp_path / "out"
    proc = run_batch_cli(cli, manifest, "--out", out, "--drape", FAKE)
    assert proc.returncode == 2, proc.stderr
    assert f"{manifest}:{where}: {message}" in proc.stderr, proc.stderr
    assert len(proc.stderr) < 2000
    assert not out.exists()


def test_empty_csv(tmp_path):
    (tmp_path / "jobs.csv").write_text("id,body,pattern\n\n")
    with pytest.raises(drape.batch.ManifestError, match="no jobs .expected a header line and one row per job"):
        drape.batch.read_manifest(tmp_path / "jobs.csv")
