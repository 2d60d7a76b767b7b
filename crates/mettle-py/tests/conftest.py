"""Shared paths: the repository's shipped rulesets, and the native `mettle` command the bindings
are compared with (built by `cargo build`; `METTLE_BIN` names another)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
RULESETS = sorted((ROOT / "rulesets").glob("*.mettle"))


def native_bin() -> Path:
    given = os.environ.get("METTLE_BIN")
    path = Path(given) if given else ROOT / "target" / "debug" / "mettle"
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"the native command is missing at {path}: run `cargo build` first")
        pytest.skip(f"no native mettle at {path}")
    return path


def native_json(*args: str):
    """What `mettle ARGS --json` prints, parsed."""
    out = subprocess.run([str(native_bin()), *args, "--json"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)
