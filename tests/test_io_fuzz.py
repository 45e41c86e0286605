"""Model files from strangers or damaged on the way: every mutated copy of a saved model either
loads as an estimator that predicts exactly as the original, or is refused with ModelFileError;
and files built to exhaust memory (zip bombs) are refused quickly, within a measured memory
bound, in a subprocess.

The fuzz runs a fixed Hypothesis profile (``derandomize=True``): the same mutated files on every
run, so a failure is reproducible and CI time is fixed (about 20 s on two cores).
"""

from __future__ import annotations

import io as stdio
import json
import os
import random
import struct
import subprocess
import sys
import warnings
import zipfile
import zlib
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scratchlearn import io as slio
from scratchlearn._registry import all_estimators
from scratchlearn.exceptions import ModelFileError
from scratchlearn.io._classes import resolve_class

try:
    from tests._data import problem_for
    from tests.test_io import _outputs
except ImportError:  # pragma: no cover - running the file on its own
    from _data import problem_for
    from test_io import _outputs


# -- the saved models ---------------------------------------------------------------------------
def _small(est):
    """The demo parameters, with at most 5 learners in an ensemble (the fuzz needs a model of
    every kind, not a large one)."""
    params = est.get_params(deep=False)
    if isinstance(params.get("n_estimators"), int) and params["n_estimators"] > 5:
        est.set_params(n_estimators=5)
    return est


class Model:
    """A fitted registry estimator, its saved file, and its outputs on the training data."""

    def __init__(self, entry, directory):
        X, y = problem_for(entry)
        est = _small(entry.cls(**entry.demo_params))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if X is None:
                est.fit(y)
            elif y is None:
                est.fit(X)
            else:
                est.fit(X, y)
            self.outputs = _outputs(est, X, y)
        path = directory / f"{entry.name}.slm"
        slio.save(est, path)
        self.name, self.X, self.y = entry.name, X, y
        self.raw = path.read_bytes()
        with zipfile.ZipFile(stdio.BytesIO(self.raw)) as zf:
            self.members = [(n, zf.read(n)) for n in zf.namelist()]
        self.doc = json.loads(dict(self.members)["model.json"])


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    directory = tmp_path_factory.mktemp("models")
    return [Model(entry, directory) for entry in all_estimators()]


# -- mutations: each takes (models, model, rng) and returns the bytes of a damaged file --------
def _zip(members):
    buf = stdio.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of duplicate names: that is the point
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data in members:
                zf.writestr(name, data)
    return buf.getvalue()


def _finish(doc, members, crafted):
    """The file of ``doc`` and ``members``: as damaged (the checksums and digest of the original
    kept, so they no longer match) or as crafted (sealed again, so only the fitted-state checks
    stand between the file and a wrong model)."""
    members = [(n, d) for n, d in members if n != "model.json"]
    if crafted:
        doc = slio._seal(json.loads(json.dumps(doc)), dict(members))
    return _zip([("model.json", json.dumps(doc).encode()), *members])


def _npy(array):
    buf = stdio.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


def _arrays(model, float_only=False):
    """The array members; ``float_only``: the float64 ones. A crafted file changes only those:
    a float64 attribute of this library is always declared float64 with its shape, while a
    label array of another dtype or length (a LabelEncoder's classes_) is another valid model."""
    return [
        (n, d)
        for n, d in model.members
        if n.endswith(".npy") and (not float_only or _header(d)[1] == np.float64)
    ]


def flip_bit(models, model, rng):
    raw = bytearray(model.raw)
    raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
    return bytes(raw)


def delete_bytes(models, model, rng):
    at = rng.randrange(len(model.raw))
    return model.raw[:at] + model.raw[at + rng.randint(1, 16) :]


def truncate(models, model, rng):
    return model.raw[: rng.randrange(len(model.raw))]


def remove_member(models, model, rng):
    members = list(model.members)
    del members[rng.randrange(len(members))]
    return _zip(members)


def duplicate_member(models, model, rng):
    """A second member of the same name, holding another member's data (the last copy is what
    zipfile would read)."""
    members = list(model.members)
    name, _ = rng.choice(members)
    other = rng.choice([d for n, d in members if n.endswith(".npy")] or [b"{}"])
    members.insert(rng.randrange(len(members) + 1), (name, other))
    return _zip(members)


def add_member(models, model, rng):
    name = rng.choice(["arrays/999.npy", "extra.txt", "arrays/0.npy/../x", "model.json.bak"])
    return _zip(list(model.members) + [(name, _npy(np.zeros(3)))])


def _patch_headers(raw, rng, field, value):
    """Set a 2-byte field of one member's local and central headers: ``field`` is "method"
    (compression method) or "flags" (general purpose bits, bit 0 = encrypted)."""
    with zipfile.ZipFile(stdio.BytesIO(raw)) as zf:
        infos, start = zf.infolist(), zf.start_dir
    k = rng.randrange(len(infos))
    out = bytearray(raw)
    local, central = {"method": (8, 10), "flags": (6, 8)}[field]
    at = infos[k].header_offset + local
    old = struct.unpack("<H", out[at : at + 2])[0]
    new = value(old)
    out[at : at + 2] = struct.pack("<H", new)
    pos = start
    for i in range(len(infos)):
        n, m, c = struct.unpack("<HHH", out[pos + 28 : pos + 34])
        if i == k:
            out[pos + central : pos + central + 2] = struct.pack("<H", new)
        pos += 46 + n + m + c
    return bytes(out)


def compression_method(models, model, rng):
    method = rng.choice([1, 9, 12, 14, 93, 99, 0xFFFF])
    return _patch_headers(model.raw, rng, "method", lambda old: method)


def encryption_flag(models, model, rng):
    return _patch_headers(model.raw, rng, "flags", lambda old: old | 0x1)


def _paths(node, path=()):
    """Every (path, value) below ``node`` in a JSON document."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


def _set(doc, path, value):
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _retyped(value, rng):
    """``value`` as a JSON value of another type (or size, for a list)."""
    if isinstance(value, bool):
        return rng.choice([int(value), str(value), None])
    if isinstance(value, int):
        return rng.choice([float(value), value + 0.5, str(value), bool(value), None, [value]])
    if isinstance(value, float):
        return rng.choice([int(value), str(value), None, [value], True])
    if isinstance(value, str):
        return rng.choice([0, 1.0, None, [value], {"$type": "float", "value": value}])
    if isinstance(value, list):
        return rng.choice([value[:-1], value + value[-1:], value[::-1], None, {}]) if value else 1
    if value is None:
        return rng.choice([0, 0.0, "", []])
    return rng.choice([None, [], list(value.values())[:1]])


def json_value_type(models, model, rng, crafted=False):
    doc = json.loads(json.dumps(model.doc))
    # a crafted file changes the fitted state only: a hyperparameter turned into another valid
    # value (binarize=None) is another valid model
    sections = ("attributes",) if crafted else ("params", "attributes")
    paths = [p for p, _ in _paths(doc) if len(p) > 1 and p[0] in sections]
    path = rng.choice(paths)
    node = doc
    for key in path:
        node = node[key]
    new = _retyped(node, rng)
    while crafted and type(new) is type(node) and new == node[::-1]:  # a value change only
        new = _retyped(node, rng)
    _set(doc, path, new)
    return _finish(doc, model.members, crafted)


def _param_names(ref):
    try:
        cls = resolve_class(ref)
    except ModelFileError:  # a "class" key that is not a class reference
        return None
    return set(cls._get_param_names()) if hasattr(cls, "_get_param_names") else set()


def swap_class(models, model, rng, crafted=False):
    """A class reference replaced by another; in a crafted file, by a class that does not take
    the stored hyperparameters (a class that takes them all reads the same fitted attributes as
    another valid model: one-vs-one from one-vs-rest on three classes, a Tweedie regressor of
    power 0 from a Poisson regressor)."""
    doc = json.loads(json.dumps(model.doc))
    refs = sorted(
        {
            v
            for m in models
            for p, v in _paths(m.doc)
            if p and p[-1] == "class" and isinstance(v, str)
        }
    )
    path = rng.choice([p for p, v in _paths(doc) if p and p[-1] == "class"])
    node = doc
    for key in path:
        node = node[key]
    if crafted:  # a class that cannot take these hyperparameters
        mine = _param_names(node)
        refs = [r for r in refs if mine is None or not mine <= (_param_names(r) or set())] or refs
    _set(doc, path, rng.choice(refs))
    return _finish(doc, model.members, crafted)


def _reshaped(a, rng, crafted=False):
    options = [
        lambda: a.T,
        # a 1-D target as a column is a valid multi-output model: only a damaged file does it
        lambda: a.reshape(-1, 1) if a.size and (a.ndim > 1 or not crafted) else a[None],
        lambda: a.reshape(-1),
        lambda: a[:-1] if a.ndim else a[None],
        lambda: np.concatenate([a, a[:1]]) if a.ndim else a[None],
        lambda: np.zeros((0,) + a.shape[1:], a.dtype),
        lambda: a[None],
        lambda: a.astype(np.int64) if a.dtype.kind in "fcbiu" else a[:0],
        lambda: a.astype(bool) if a.dtype.kind in "fcbiu" else a[::-1],
        lambda: a.astype(np.float32) if a.dtype.kind in "fiu" else a.astype("U1"),
        lambda: a.astype(np.int32) if a.dtype.kind in "fiu" else a.astype("S8"),
        lambda: a.astype(a.dtype.newbyteorder()) if a.dtype.kind in "fiu" else a,
        lambda: a.astype(np.complex128) if a.dtype.kind in "fiu" else a,
        lambda: a + 1 if a.dtype.kind in "iu" else a,  # shifted indices
        lambda: -a if a.dtype.kind in "iu" else a,
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # casts that lose information: that is the point
        try:
            return rng.choice(options)()
        except (IndexError, ValueError, TypeError):  # e.g. slicing a 0-d array
            return a.reshape(-1)[:0]


def array_shape_or_dtype(models, model, rng, crafted=False):
    """An array changed in shape, dtype or size (a crafted file never changes values only: a
    file with other values of the right types is another valid model)."""
    arrays = _arrays(model, float_only=crafted)
    if not arrays:
        return json_value_type(models, model, rng, crafted)
    name, data = rng.choice(arrays)
    a = np.load(stdio.BytesIO(data), allow_pickle=False)
    b = _reshaped(a, rng, crafted)
    for _ in range(20):
        if not crafted or b.dtype != a.dtype or b.shape != a.shape:
            break
        b = _reshaped(a, rng, crafted)
    else:
        b = a[None]
    members = [(n, _npy(b) if n == name else d) for n, d in model.members]
    return _finish(model.doc, members, crafted)


def swap_arrays(models, model, rng, crafted=False):
    """An array member replaced by an array of another estimator's file (of another shape or
    dtype, in a crafted file)."""
    arrays = _arrays(model, float_only=crafted)
    if not arrays:
        return json_value_type(models, model, rng, crafted)
    name, data = rng.choice(arrays)
    kind = _header(data)
    others = [d for m in models for n, d in _arrays(m) if not crafted or _header(d) != kind]
    other = rng.choice(others)
    return _finish(model.doc, [(n, other if n == name else d) for n, d in model.members], crafted)


def _header(npy):
    fh = stdio.BytesIO(npy)
    np.lib.format.read_magic(fh)
    shape, _, dtype = np.lib.format.read_array_header_1_0(fh)
    return shape, dtype


def _crafted(mutation):
    def crafted(models, model, rng):
        return mutation(models, model, rng, crafted=True)

    crafted.__name__ = f"crafted_{mutation.__name__}"
    return crafted


MUTATIONS = [
    flip_bit,
    delete_bytes,
    truncate,
    remove_member,
    duplicate_member,
    add_member,
    compression_method,
    encryption_flag,
    json_value_type,
    swap_class,
    array_shape_or_dtype,
    swap_arrays,
    *(_crafted(m) for m in (json_value_type, swap_class, array_shape_or_dtype, swap_arrays)),
]


# -- the fuzz -----------------------------------------------------------------------------------
def _predicts_the_same(model, est):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        after = _outputs(est, model.X, model.y)
    if after.keys() != model.outputs.keys():
        return False
    for method, value in model.outputs.items():
        got = after[method]
        if isinstance(value, tuple):
            if got != value:
                return False
        elif got.dtype != value.dtype or got.shape != value.shape:
            return False
        elif not np.array_equal(got, value, equal_nan=value.dtype.kind in "fc"):
            return False
    return True


def outcome(model, data):
    """ "equal", "refused", or what else happened (a failure)."""
    try:
        est = slio.load(stdio.BytesIO(data))
    except ModelFileError:
        return "refused"
    except Exception as exc:  # noqa: BLE001 - any other exception is what the fuzz looks for
        return f"load raised {type(exc).__name__}: {exc}"
    try:
        same = _predicts_the_same(model, est)
    except Exception as exc:  # noqa: BLE001
        return f"loaded, then a method raised {type(exc).__name__}: {exc}"
    return "equal" if same else "loaded and predicts differently"


N_EXAMPLES = 500  # per half of the registry: 1,000 mutated files in all


@pytest.mark.parametrize("half", [0, 1])
def test_mutated_files_load_equal_or_are_refused(models, half):
    mine = models[half::2]
    tally, kinds = Counter(), Counter()

    @settings(
        max_examples=N_EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        index=st.integers(0, len(mine) - 1),
        mutation=st.sampled_from(MUTATIONS),
        seed=st.integers(0, 2**32 - 1),
    )
    def fuzz(index, mutation, seed):
        model = mine[index]
        data = mutation(models, model, random.Random(seed))
        result = outcome(model, data)
        tally[result if result in ("equal", "refused") else "other"] += 1
        kinds[mutation.__name__, result if result in ("equal", "refused") else "other"] += 1
        assert result in ("equal", "refused"), f"{model.name}, {mutation.__name__}: {result}"

    fuzz()
    print(f"\nmutated files (half {half}): {sum(tally.values())}, {dict(tally)}")
    print("by mutation:", dict(sorted(kinds.items())))
    assert tally["other"] == 0


def test_every_registry_estimator_is_fuzzed(models):
    """The fuzz covers every registry estimator, and each one's file loads unchanged."""
    assert [m.name for m in models] == [e.name for e in all_estimators()]
    for model in models:
        assert outcome(model, model.raw) == "equal", model.name


# -- bombs: files built to exhaust memory -------------------------------------------------------
_M32 = 0xFFFFFFFF


def _crc32_of_zeros(n, crc=0):
    """CRC-32 of ``n`` zero bytes following data of CRC ``crc``, in O(log n) steps: feeding one
    zero byte is a linear map of the 32-bit CRC register, so n of them is that map to the power
    n, by repeated squaring (zlib computes 1 GiB of zeros in about 2 s; this, in microseconds)."""

    def step(s):
        return ~zlib.crc32(b"\0", ~s & _M32) & _M32

    def apply(mat, v):
        out, i = 0, 0
        while v:
            if v & 1:
                out ^= mat[i]
            v >>= 1
            i += 1
        return out

    mat = [step(1 << i) for i in range(32)]
    state = ~crc & _M32
    while n:
        if n & 1:
            state = apply(mat, state)
        mat = [apply(mat, c) for c in mat]
        n >>= 1
    return ~state & _M32


def _deflate_repeated(prefix, unit, count, suffix=b""):
    """A raw deflate stream of ``prefix + unit * count + suffix`` built from one compressed block
    repeated: a full flush resets the compressor, so equal input compresses to equal bytes."""
    per_block = max(1, 2**20 // len(unit))
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = comp.compress(prefix) + comp.flush(zlib.Z_FULL_FLUSH)
    block = comp.compress(unit * per_block) + comp.flush(zlib.Z_FULL_FLUSH)
    full, rest = divmod(count, per_block)
    return head + block * full + comp.compress(unit * rest + suffix) + comp.flush()


def _write_zip(fh, members):
    """A zip archive written by hand, so its directory can declare what the data is not.
    ``members``: (name, compressed payload, crc, declared size, method); zip64 records always."""
    central = []
    for name, payload, crc, size, method in members:
        raw_name, offset = name.encode(), fh.tell()
        extra = struct.pack("<HHQQ", 1, 16, size, len(payload))
        fh.write(struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 45, 0, method, 0, 0x21, crc, _M32,
                             _M32, len(raw_name), len(extra)))  # fmt: skip
        fh.write(raw_name + extra + payload)
        central.append((raw_name, crc, size, len(payload), method, offset))
    start = fh.tell()
    for raw_name, crc, size, clen, method, offset in central:
        extra = struct.pack("<HHQQQ", 1, 24, size, clen, offset)
        fields = (45, 45, 0, method, 0, 0x21, crc, _M32, _M32, len(raw_name), len(extra))
        fh.write(struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", *fields, 0, 0, 0, 0, _M32))
        fh.write(raw_name + extra)
    end, n = fh.tell(), len(central)
    fh.write(struct.pack("<4sQHHIIQQQQ", b"PK\x06\x06", 44, 45, 45, 0, 0, n, n, end - start, start))
    fh.write(struct.pack("<4sIQI", b"PK\x06\x07", 0, end, 1))
    fh.write(struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, min(n, 0xFFFF), min(n, 0xFFFF),
                         _M32, _M32, 0))  # fmt: skip


def _npy_header(shape):
    buf = stdio.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": "<f8", "fortran_order": False, "shape": shape}
    )
    return buf.getvalue()


def _deflated(data):
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    return (comp.compress(data) + comp.flush(), zlib.crc32(data), len(data), 8)


def _bombs(directory):
    """Five model files of a Ridge on 10 features (coef_ is arrays/0.npy), each a few MB on
    disk, built to take gigabytes to load naively. Returns {name: path}."""
    from scratchlearn.linear_model import Ridge

    X = np.random.default_rng(0).normal(size=(20, 10))
    slio.save(Ridge().fit(X, X.sum(axis=1)), directory / "ok.slm")
    with zipfile.ZipFile(directory / "ok.slm") as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    doc = members["model.json"]
    G = 6 * 10**9  # 6 GB of float64 zeros
    big, small = _npy_header((G // 8,)), _npy_header((10,))
    inflating = _deflate_repeated(small, b"\0" * 4096, G // 4096)
    files = {
        # the .npy header declares a 6 GB array (and the member honestly holds it)
        "declared_6gb": [
            ("arrays/0.npy", _deflate_repeated(big, b"\0" * 4096, G // 4096),
             _crc32_of_zeros(G, zlib.crc32(big)), len(big) + G, 8),
        ],
        # the header declares 10 values; the zip directory declares, and the data holds, 6 GB
        "inflates_6gb": [
            ("arrays/0.npy", inflating, _crc32_of_zeros(G, zlib.crc32(small)), len(small) + G, 8),
        ],
        # the zip directory lies: 208 bytes declared, a stream that inflates to 6 GB
        "lying_size": [
            ("arrays/0.npy", inflating, _crc32_of_zeros(80, zlib.crc32(small)), len(small) + 80, 8),
        ],
        # 100,000 members beside the model
        "many_members": [("arrays/0.npy", *_deflated(members["arrays/0.npy"]))]
        + [(f"arrays/{k}.npy", b"", 0, 0, 0) for k in range(1000, 101_000)],
    }  # fmt: skip
    paths = {}
    for name, arrays in files.items():
        paths[name] = directory / f"{name}.slm"
        with open(paths[name], "wb") as fh:
            _write_zip(fh, [("model.json", *_deflated(doc)), *arrays])
    # a 200 MB model.json: the document with 10^8 zeros in its metadata
    n = 10**8
    head = doc[: doc.rindex(b'"metadata"')] + b'"metadata": {"pad": ['
    tail = b'0]}, "checksums": {}}'
    text_crc, block = zlib.crc32(head), b"0," * 2**20
    for _ in range(n // 2**20):  # block by block: never 200 MB in this process
        text_crc = zlib.crc32(block, text_crc)
    text_crc = zlib.crc32(tail, zlib.crc32(b"0," * (n % 2**20), text_crc))
    paths["json_200mb"] = directory / "json_200mb.slm"
    with open(paths["json_200mb"], "wb") as fh:
        js = ("model.json", _deflate_repeated(head, b"0,", n, tail), text_crc,
              len(head) + 2 * n + len(tail), 8)  # fmt: skip
        _write_zip(fh, [js, ("arrays/0.npy", *_deflated(members["arrays/0.npy"]))])
    # the costliest model.json the limits let through: 4 MiB of two-letter strings, parsed (into
    # about 70 MB of Python objects) and written out again before its digest refuses it
    unit = b'"ab",'
    k = (128 * slio.MAX_MEMBERS - len(head) - len(tail) - 16) // len(unit)
    text = head + unit * k + tail
    paths["json_at_limit"] = directory / "json_at_limit.slm"
    with open(paths["json_at_limit"], "wb") as fh:
        arrays = [("arrays/0.npy", *_deflated(members["arrays/0.npy"]))]
        _write_zip(fh, [("model.json", *_deflated(text)), *arrays])
    return paths


_MEASURE = """
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))  # a regression fails, not the host
from scratchlearn import io

def status(key):  # kB
    with open("/proc/self/status") as fh:
        return int(next(line for line in fh if line.startswith(key)).split()[1])

for path in sys.argv[1:]:
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")  # reset the peak resident size (VmHWM) to the current one
    before = status("VmRSS:")
    t = time.perf_counter()
    try:
        io.load(path)
        outcome = "loaded"
    except Exception as exc:
        outcome = f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - t
    print(json.dumps({"path": path, "seconds": seconds, "outcome": outcome,
                      "peak_mib_above_baseline": (status("VmHWM:") - before) / 1024}))
"""


def test_bombs_are_refused_quickly_within_a_memory_bound(tmp_path):
    """Measured before the size checks (under a 3 GiB address-space limit): the 6 GB header and
    the 6 GB member each ran 16 s to a MemoryError at 2.1 GB; the lying member loaded after 8 s at
    2.1 GB (zipfile inflates up to 2 GiB at a time); 100,000 members loaded (2.5 s, +108 MB); the
    200 MB model.json loaded (25 s, +1.16 GB).

    Now each is refused from its declared sizes before any array data is read. The bound: the
    loader then holds at most the archive's last 64 KiB (the end-of-directory search), a
    directory of a few entries, one .npy header (numpy caps it at 10,000 bytes) and one
    decompressed chunk (1 MiB) with zlib's 32 KiB window: under 2 MiB. 32 MiB above the
    interpreter's baseline leaves room for allocator slack and lazily imported modules."""
    paths = _bombs(tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", _MEASURE, *map(str, paths.values())],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert result.returncode == 0, result.stderr
    rows = {os.path.basename(r["path"]): r for r in map(json.loads, result.stdout.splitlines())}
    print()
    for name, row in rows.items():
        print(f"{name}: {row['seconds']:.3f} s, +{row['peak_mib_above_baseline']:.1f} MiB, "
              f"{row['outcome'][-150:]}")  # fmt: skip
    expected = {
        "declared_6gb": "declares 6000000000 bytes",
        "inflates_6gb": "declares 6000000128 bytes in the zip directory, but its .npy header",
        "lying_size": "more than any compressor writes",
        "many_members": "declares 100002 members, more than max_members=32768",
        "json_200mb": "model.json declares 200",
    }
    for name, fragment in expected.items():
        row = rows[f"{name}.slm"]
        assert row["outcome"].startswith("ModelFileError") and fragment in row["outcome"], row
        assert row["seconds"] < 2.0, row  # milliseconds when the machine is idle
        assert row["peak_mib_above_baseline"] < 32, row
    # The largest model.json the limits admit is parsed and its digest checked: 4 MiB read and
    # decoded to a str (8 MiB), at most 16 bytes of Python objects per byte of JSON (64 MiB),
    # and the canonical text written again for the digest, its 0.8 million pieces first held
    # in a list (about 50 MiB): near 120 MiB; measured 115 MiB (238 MiB at twice the size).
    row = rows["json_at_limit.slm"]
    assert row["outcome"].startswith("ModelFileError") and "digest" in row["outcome"], row
    assert row["peak_mib_above_baseline"] < 160 and row["seconds"] < 10.0, row
