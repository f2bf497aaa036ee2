"""The Python module against the drape CLI and the data itself.

A dress from Python must equal `drape dress` on the same inputs and settings
at the same thread count (garment.obj byte for byte); check() must give
`drape check --json`'s counts; bad inputs must raise the mapped exception
naming the file and write nothing.
"""
import json
import subprocess

import numpy as np
import pytest

import drape

THREADS = 2
# Small enough for a few seconds on 2 cores: the 2-panel skirt at 40 mm.
SETTINGS = dict(particle_distance_mm=40, max_frames=40)


def body_path(data_dir):
    return data_dir / "bodies" / "makehuman" / "base.obj"


def skirt_path(data_dir):
    return data_dir / "patterns" / "gpg" / "skirt_2_panels.json"


def read_obj(path):
    """Vertices (float64, as printed) and faces (0-based) of an OBJ, parsed independently of drape."""
    verts, faces = [], []
    for line in path.read_text().splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "v":
            verts.append([float(x) for x in parts[1:4]])
        elif parts[0] == "f":
            faces.append([int(c.split("/")[0]) - 1 for c in parts[1:]])
    return np.array(verts, dtype=np.float64), np.array(faces, dtype=np.int64)


@pytest.fixture(scope="module")
def dressed(tmp_path_factory, data_dir, cli):
    """The same job run by the CLI and by drape.dress, each into its own folder."""
    root = tmp_path_factory.mktemp("dress")
    cli_out, py_out = root / "cli", root / "py"
    subprocess.run(
        [str(cli), "--threads", str(THREADS), "dress", "--body", str(body_path(data_dir)),
         "--pattern", str(skirt_path(data_dir)), "--particle-distance", str(SETTINGS["particle_distance_mm"]),
         "--max-frames", str(SETTINGS["max_frames"]), "--no-render", "--quiet", "--out", str(cli_out)],
        check=True)
    drape.set_threads(THREADS)
    result = drape.dress(str(body_path(data_dir)), str(skirt_path(data_dir)), out_dir=str(py_out),
                         render=False, **SETTINGS)
    return cli_out, py_out, result


def test_dress_equals_cli_bit_for_bit(dressed):
    cli_out, py_out, result = dressed
    assert (py_out / "garment.obj").read_bytes() == (cli_out / "garment.obj").read_bytes()
    # The arrays in memory are garment.obj's numbers before printing (9 significant digits).
    v, f = read_obj(cli_out / "garment.obj")
    assert result.vertices.dtype == np.float64 and result.vertices.shape == v.shape
    assert result.faces.dtype == np.int32
    np.testing.assert_array_equal(result.faces, f)
    np.testing.assert_allclose(result.vertices, v, rtol=1e-8, atol=1e-12)


def without_times(report):
    """The report less its wall-clock times (the only part that may differ between two runs)."""
    if isinstance(report, dict):
        return {k: without_times(v) for k, v in report.items() if not k.endswith("times_s")}
    if isinstance(report, list):
        return [without_times(v) for v in report]
    return report


def test_dress_report_matches_cli(dressed):
    cli_out, py_out, result = dressed
    cli_report = json.loads((cli_out / "report.json").read_text())
    assert without_times(result.report) == without_times(cli_report)
    assert result.report == json.loads((py_out / "report.json").read_text())
    assert result.stop_reason == cli_report["result"]["stop_reason"]
    assert result.report["result"]["triangles"] == result.faces.shape[0]
    assert [p.rsplit("/", 1)[-1] for p in result.written] == ["garment.obj", "scene.glb", "report.json"]


def test_dress_panels_match_obj_groups(dressed):
    cli_out, _, result = dressed
    # garment.obj has a `g <panel>` line wherever the panel changes: count faces per group.
    counts, group = {}, None
    for line in (cli_out / "garment.obj").read_text().splitlines():
        if line.startswith("g "):
            group = line[2:].strip()
        elif line.startswith("f "):
            counts[group] = counts.get(group, 0) + 1
    ours = {name: int(np.sum(result.face_panel == i)) for i, name in enumerate(result.panel_names)}
    assert ours == counts
    assert sorted(result.panel_names) == ["back", "front"]


def test_check_equals_cli(dressed, data_dir, cli):
    cli_out, _, _ = dressed
    garment = cli_out / "garment.obj"
    out = subprocess.run([str(cli), "--threads", str(THREADS), "check", "--body", str(body_path(data_dir)),
                          "--garment", str(garment), "--json"], check=True, capture_output=True, text=True)
    expected = json.loads(out.stdout)
    ours = drape.check(str(garment), str(body_path(data_dir)))
    for key in ("vertices_inside_body", "body_crossing_pairs", "self_crossing_pairs", "garment_vertices",
                "garment_triangles", "body_unit", "garment_unit", "body_axes", "body_group", "body_closed",
                "clean"):
        assert ours[key] == expected[key], key


def test_load_body_matches_the_file(data_dir):
    path = body_path(data_dir)
    body = drape.load_body(str(path))
    raw, _ = read_obj(path)
    assert body.vertices.dtype == np.float64 and body.vertices.shape[1] == 3
    assert body.faces.dtype == np.int32 and body.faces.shape[1] == 3
    assert body.faces.min() >= 0 and body.faces.max() < len(body.vertices)
    assert body.group == "body" and body.up == "+y" and body.front == "+z"
    # MakeHuman's base.obj is in decimetres: a standing adult 1.5-2.0 m tall.
    assert body.unit == "dm"
    height = np.ptp(body.vertices[:, 1])
    assert 1.5 < height < 2.0
    # Every vertex read is one of the file's `v` lines (file frame and unit).
    sample = body.file_vertices[:: max(1, len(body.vertices) // 200)]
    nearest = np.min(np.linalg.norm(raw[None, :, :] - sample[:, None, :], axis=2), axis=1)
    assert nearest.max() < 1e-9 * np.abs(raw).max() + 1e-12


def test_load_body_given_axes(data_dir):
    body = drape.load_body(str(body_path(data_dir)), up="+y", front="+z", unit="dm", group="body")
    assert not body.axes_detected and not body.unit_detected


def test_load_pattern_matches_the_json(data_dir):
    path = skirt_path(data_dir)
    spec = json.loads(path.read_text())["pattern"]
    pattern = drape.load_pattern(str(path))
    assert sorted(pattern.panel_names) == sorted(spec["panels"])
    assert pattern.stitches == len(spec["stitches"])
    assert len(pattern.stitch_list) == pattern.stitches


def test_missing_files_raise_oserror_naming_the_file(tmp_path, data_dir):
    missing = tmp_path / "no_such_body.obj"
    with pytest.raises(OSError, match="no_such_body.obj"):
        drape.load_body(str(missing))
    with pytest.raises(OSError, match="no_such_pattern.json"):
        drape.load_pattern(str(tmp_path / "no_such_pattern.json"))
    with pytest.raises(OSError, match="no_such_garment.obj"):
        drape.check(str(tmp_path / "no_such_garment.obj"), str(body_path(data_dir)))


@pytest.mark.parametrize("name", ["pattern_not_json.json", "pattern_edge_index.json", "pattern_nan.json",
                                  "pattern_open_outline.json"])
def test_corrupt_pattern_raises_valueerror_naming_the_file(bad_dir, name):
    with pytest.raises(ValueError, match=name):
        drape.load_pattern(str(bad_dir / name))


@pytest.mark.parametrize("name", ["obj_nan_coordinate.obj", "obj_face_index_out_of_range.obj"])
def test_corrupt_body_raises_valueerror_naming_the_file(bad_dir, name):
    with pytest.raises(ValueError, match=name):
        drape.load_body(str(bad_dir / name))


def test_dress_bad_input_raises_and_writes_nothing(tmp_path, data_dir, bad_dir):
    out = tmp_path / "out"
    with pytest.raises(ValueError, match="pattern_not_json.json"):
        drape.dress(str(body_path(data_dir)), str(bad_dir / "pattern_not_json.json"), out_dir=str(out),
                    **SETTINGS)
    with pytest.raises(ValueError, match="fabric_negative_density.json"):
        drape.dress(str(body_path(data_dir)), str(skirt_path(data_dir)), out_dir=str(out),
                    fabric=str(bad_dir / "fabric_negative_density.json"), **SETTINGS)
    with pytest.raises(ValueError, match="unit"):
        drape.dress(str(body_path(data_dir)), str(skirt_path(data_dir)), unit="furlong", **SETTINGS)
    assert not out.exists() or not any(out.iterdir())


def test_strict_frame_limit_raises_simulation_error(tmp_path, data_dir):
    out = tmp_path / "out"
    with pytest.raises(drape.SimulationError, match="skirt_2_panels.json") as info:
        drape.dress(str(body_path(data_dir)), str(skirt_path(data_dir)), out_dir=str(out), strict=True,
                    particle_distance_mm=40, max_frames=3, render=False)
    assert isinstance(info.value, RuntimeError)
    assert not (out / "garment.obj").exists()


def test_help_documents_the_arguments():
    doc = drape.dress.__doc__
    for word in ("body_path", "pattern_path", "out_dir", "fabric", "particle_distance_mm", "threads",
                 "max_frames", "SimulationError"):
        assert word in doc, word
