"""Shared fixtures of the Python module's tests: where the data and the drape CLI are.

ctest sets PYTHONPATH (build/python), DRAPE_CLI and DRAPE_DATA_DIR; run by hand:
PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python
"""
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def data_dir():
    return pathlib.Path(os.environ.get("DRAPE_DATA_DIR", REPO / "data"))


@pytest.fixture(scope="session")
def bad_dir():
    return REPO / "tests" / "data" / "bad"


@pytest.fixture(scope="session")
def cli():
    path = pathlib.Path(os.environ.get("DRAPE_CLI", REPO / "build" / "apps" / "drape" / "drape"))
    if not path.exists():
        pytest.fail(f"drape CLI not found at {path} (build it, or set DRAPE_CLI)")
    return path
