"""The declared dependency floors: requirements-min.txt (what `make test-min` installs) pins
every `>=` floor of pyproject.toml's run-time dependencies and dev extra at exactly that
version, and the environment running the suite satisfies those floors."""

import re
from importlib import metadata
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli", reason="reading pyproject.toml needs Python 3.11")

ROOT = Path(__file__).resolve().parent.parent
FLOOR = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?>=([0-9][0-9.]*)$")
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([0-9][0-9.]*)$")


def _name(raw):
    """PEP 503 normal form: case and runs of -, _, . do not distinguish two names."""
    return re.sub(r"[-_.]+", "-", raw).lower()


def _parse(lines, pattern, what):
    """{normalised name: version} of requirement lines that all match ``pattern``."""
    out = {}
    for line in lines:
        m = pattern.match(line.replace(" ", ""))
        assert m is not None, f"{what}: {line!r} is not one name and one version bound"
        assert _name(m[1]) not in out, f"{what}: {m[1]} is listed twice"
        out[_name(m[1])] = m[2]
    return out


def _floors():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = _parse(project["dependencies"], FLOOR, "[project] dependencies")
    dev = _parse(project["optional-dependencies"]["dev"], FLOOR, "dev extra")
    return runtime, dev


def _pins():
    text = (ROOT / "requirements-min.txt").read_text().splitlines()
    lines = [ln.split("#", 1)[0].strip() for ln in text]
    return _parse([ln for ln in lines if ln], PIN, "requirements-min.txt")


def _release(version):
    """The numeric release segment without trailing zeros: '1.25.0rc1' and '1.25' -> (1, 25)."""
    parts = [int(p) for p in re.match(r"[0-9]+(?:\.[0-9]+)*", version)[0].split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def test_min_requirements_pin_every_floor_exactly():
    runtime, dev = _floors()
    assert not set(runtime) & set(dev), "a package is both a run-time and a dev requirement"
    pins = {name: _release(v) for name, v in _pins().items()}
    assert pins == {name: _release(v) for name, v in {**runtime, **dev}.items()}


@pytest.mark.parametrize("which", ["runtime", "dev"])
def test_environment_meets_the_floors(which):
    runtime, dev = _floors()
    floors = runtime if which == "runtime" else dev
    for name, floor in floors.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            if which == "runtime":
                raise
            continue  # a dev tool this run does not use (e.g. ruff when only testing)
        assert _release(installed) >= _release(floor), f"{name} {installed} is below {floor}"
