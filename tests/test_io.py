"""Model files: every registered estimator survives save/load exactly; every kind of value the
encoder supports round-trips; unsupported values are refused at save time with their path; and
every malformed file is refused with ModelFileError, never by running code from it."""

from __future__ import annotations

import io as stdio
import json
import math
import os
import warnings
import zipfile

import numpy as np
import pytest
import scipy.sparse as sp

import scratchlearn.base as sl_base
from scratchlearn import io as slio
from scratchlearn._registry import all_estimators
from scratchlearn.base import BaseEstimator, RegressorMixin
from scratchlearn.exceptions import ModelFileError
from scratchlearn.utils import Bunch

try:
    from tests._data import problem_for
except ImportError:  # pragma: no cover - running the file on its own
    from _data import problem_for


# -- toy classes living (for the test) in a scratchlearn module ------------------------------
class ToyModel(RegressorMixin, BaseEstimator):
    def __init__(self, *, alpha=1.0, dtype=np.float64, inner=None, steps=None):
        self.alpha = alpha
        self.dtype = dtype
        self.inner = inner
        self.steps = steps

    def fit(self, X, y):
        self.coef_ = np.linalg.lstsq(X, y, rcond=None)[0]
        return self

    def predict(self, X):
        return X @ self.coef_


class ToyNode:
    """A helper object (like a tree structure) that opts in to model files."""

    _scratchlearn_serializable = True

    def __init__(self, value, children=()):
        self.value = value
        self.children = list(children)


class ToyNotOptedIn:
    def __init__(self):
        self.x = 1


@pytest.fixture
def toys(monkeypatch):
    for cls in (ToyModel, ToyNode, ToyNotOptedIn):
        monkeypatch.setattr(cls, "__module__", "scratchlearn.base")
        monkeypatch.setattr(sl_base, cls.__name__, cls, raising=False)
    return ToyModel


def _roundtrip(est, tmp_path, name="m.slm"):
    path = tmp_path / name
    slio.save(est, path)
    return slio.load(path)


def _same(a, b):
    """Deep equality that also checks types, dtypes, NaN positions and sparse formats."""
    assert type(a) is type(b), (type(a), type(b))
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        if a.dtype == object:
            assert all(_same(x, y) is None for x, y in zip(a.ravel(), b.ravel()))
        else:
            np.testing.assert_array_equal(a, b)
    elif sp.issparse(a):
        assert a.format == b.format and a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.toarray(), b.toarray())
    elif isinstance(a, dict):
        assert list(a.keys()) == list(b.keys())
        for k in a:
            assert type(k) is type(next(kb for kb in b if kb == k))
            _same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b)
    elif isinstance(a, np.floating) and np.isnan(a):
        assert np.isnan(b) and a.dtype == b.dtype
    elif hasattr(a, "__dict__") and not isinstance(a, type):
        _same(vars(a), vars(b))
    else:
        assert a == b, (a, b)


# -- value kinds -------------------------------------------------------------------------------
def test_every_value_kind_round_trips(toys, tmp_path):
    est = ToyModel(alpha=float("nan"), dtype=np.float32, inner=ToyModel(alpha=-math.inf))
    rng = np.random.default_rng(0)
    est.scalars_ = [None, True, False, 0, -3, 2**70, 1.5, -0.0, math.inf, "txt", "", 1 + 2j]
    est.np_scalars_ = [
        np.float64(0.1),
        np.float32(1 / 3),
        np.int64(-7),
        np.uint8(255),
        np.bool_(True),
        np.float64("nan"),
        np.str_("abc"),
        np.complex128(1j),
    ]
    est.vocabulary_ = {"free": 0, "win": np.int64(1), "$type": 2}  # a reserved key too
    est.int_keys_ = {0: "a", 1: ("b", 2), -5: [1.0]}
    est.tuple_keys_ = {("a", "b"): 1, (1, 2): {3}, None: frozenset({"x"})}
    est.float_ = rng.normal(size=(4, 3))
    est.int_ = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2]  # non-contiguous view
    est.bool_ = np.array([True, False])
    est.empty_ = np.empty((0, 5))
    est.fortran_ = np.asfortranarray(rng.normal(size=(3, 2)))
    est.classes_ = np.array(["ham", "spam", "ünïcode"], dtype=object)
    est.mixed_ = np.array([1, "a", None, 2.5, np.nan], dtype=object)
    est.nul_ = np.array(["a\x00", "b"], dtype=object)  # numpy's unicode type strips NULs
    est.unicode_ = np.array(["x", "yz"])
    est.dtype_ = np.dtype("int16")
    est.types_ = [float, int, bool, str, np.int64, np.float32]
    est.csr_ = sp.random(5, 4, density=0.4, format="csr", random_state=0)
    est.csc_ = sp.random(5, 4, density=0.4, format="csc", random_state=1)
    est.coo_ = sp.coo_array(np.eye(3))
    est.lil_ = sp.lil_matrix(np.eye(2))
    est.bunch_ = Bunch(J=[3.0, 2.0], grad_norm=np.array([1.0, 0.1]))
    est.history_ = [{"J": 1.0}, {"J": 0.5}]
    est.tree_ = ToyNode(1, [ToyNode(2), ToyNode(3, [ToyNode(4)])])
    est.set_ = {1, 2, 3}

    back = _roundtrip(est, tmp_path)
    assert type(back) is ToyModel
    _same(vars(est), vars(back))
    assert back.classes_.dtype == object and back.unicode_.dtype.kind == "U"
    assert back.int_.flags.c_contiguous or back.int_.flags.f_contiguous
    assert back.get_params()["inner__alpha"] == -math.inf
    assert type(back.bunch_) is Bunch and back.bunch_.J == [3.0, 2.0]


def test_random_generator_state_is_kept(toys, tmp_path):
    gen = np.random.default_rng(42)
    gen.random(3)
    est = ToyModel(inner=None)
    est.rng_ = gen
    est.legacy_ = np.random.RandomState(5)
    back = _roundtrip(est, tmp_path)
    assert back.rng_.random() == gen.random()
    assert back.legacy_.randint(1000) == est.legacy_.randint(1000)


def test_nested_estimators_and_pipeline_like_steps(toys, tmp_path):
    X = np.random.default_rng(1).normal(size=(20, 3))
    y = X @ np.array([1.0, -2.0, 0.5])
    est = ToyModel(steps=[("a", ToyModel(alpha=2.0).fit(X, y)), ("b", ToyModel())]).fit(X, y)
    back = _roundtrip(est, tmp_path)
    assert back.steps[0][0] == "a" and isinstance(back.steps[0], tuple)
    np.testing.assert_array_equal(back.steps[0][1].predict(X), est.steps[0][1].predict(X))
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    assert repr(back) == repr(est)


def test_unfitted_estimator_and_metadata(toys, tmp_path):
    path = tmp_path / "u.slm"
    slio.save(ToyModel(alpha=3.0), path, metadata={"feature_names": ["a", "b"], "n": 2})
    back = slio.load(path)
    assert back.alpha == 3.0 and not any(k.endswith("_") for k in vars(back))
    assert slio.read_metadata(path) == {"feature_names": ["a", "b"], "n": 2}


def test_file_is_a_zip_of_json_and_npy(toys, tmp_path):
    est = ToyModel().fit(np.eye(3), np.arange(3.0))
    path = tmp_path / "m.slm"
    slio.save(est, path)
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        doc = json.loads(zf.read("model.json"))
        arrays = [
            np.load(stdio.BytesIO(zf.read(n)), allow_pickle=False)
            for n in names
            if n.endswith(".npy")
        ]
    assert names[0] == "model.json"
    assert doc["format"] == "scratchlearn-model" and doc["format_version"] == slio.FORMAT_VERSION
    assert set(doc["checksums"]) == {n for n in names if n.endswith(".npy")} and doc["digest"]
    assert doc["class"] == "scratchlearn.base:ToyModel"
    assert doc["params"]["alpha"] == 1.0
    assert doc["scratchlearn_version"]
    assert doc["params"]["dtype"] == {"$type": "type", "value": "numpy.float64"}
    np.testing.assert_array_equal(arrays[0], est.coef_)


def test_save_overwrites_atomically(toys, tmp_path):
    path = tmp_path / "m.slm"
    slio.save(ToyModel(alpha=1.0), path)
    slio.save(ToyModel(alpha=2.0), str(path))
    assert slio.load(path).alpha == 2.0
    assert [p.name for p in tmp_path.iterdir()] == ["m.slm"]  # no temporary left behind
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask  # like any file the user writes


# -- refused at save time --------------------------------------------------------------------
@pytest.mark.parametrize(
    "attr, value, fragment",
    [
        ("inner", lambda x: x, "ToyModel.inner of type function"),
        ("coef_", [1, {"k": object()}], "ToyModel.coef_[1]['k'] of type object"),
        ("helper_", ToyNotOptedIn(), "ToyModel.helper_ of type scratchlearn.base.ToyNotOptedIn"),
        ("mod_", np, "ToyModel.mod_ of type module"),
        ("inner", np.linalg.norm, "ToyModel.inner of type"),
        ("t_", slice(1, 2), "ToyModel.t_ of type slice"),
        ("b_", b"bytes", "ToyModel.b_ of type bytes"),
        (  # the class lives in numpy.ma under NumPy 2, in numpy.ma.core under NumPy 1.x
            "m_",
            np.ma.masked_array([1, 2]),
            f"ToyModel.m_ of type {np.ma.MaskedArray.__module__}.MaskedArray",
        ),
        ("obj_", np.array([1, object()], dtype=object), "ToyModel.obj_[1] of type object"),
        ("ty_", dict, "ToyModel.ty_ of type type"),
    ],
)
def test_unsupported_values_are_refused_with_their_path(toys, tmp_path, attr, value, fragment):
    est = ToyModel()
    setattr(est, attr, value)
    path = tmp_path / "x.slm"
    with pytest.raises(TypeError, match="cannot save") as info:
        slio.save(est, path)
    assert fragment in str(info.value)
    assert not path.exists()


def test_foreign_estimators_and_cycles_are_refused(toys, tmp_path):
    from sklearn.linear_model import Ridge as SkRidge

    with pytest.raises(TypeError, match="ToyModel.inner of type sklearn"):
        slio.save(ToyModel(inner=SkRidge()), tmp_path / "a.slm")
    with pytest.raises(TypeError, match="cannot save Ridge of type sklearn"):
        slio.save(SkRidge(), tmp_path / "b.slm")
    with pytest.raises(TypeError, match="save expects"):
        slio.save(ToyModel, tmp_path / "c.slm")
    est = ToyModel()
    est.loop_ = [1]
    est.loop_.append(est.loop_)
    with pytest.raises(TypeError, match=r"ToyModel.loop_\[1\]: it contains itself"):
        slio.save(est, tmp_path / "d.slm")


def test_estimator_defined_outside_scratchlearn_is_refused(tmp_path):
    class Outside(BaseEstimator):
        pass

    with pytest.raises(TypeError, match="only scratchlearn estimators|cannot save"):
        slio.save(Outside(), tmp_path / "o.slm")


# -- malformed files -------------------------------------------------------------------------
def _valid_file(tmp_path):
    est = ToyModel().fit(np.eye(4), np.arange(4.0))
    est.words_ = np.array(["a", "b"], dtype=object)
    path = tmp_path / "ok.slm"
    slio.save(est, path)
    return path


def _rewrite(src, dst, edit_doc=None, extra=None, drop=()):
    """Copy a model file, editing model.json and adding or dropping members."""
    with zipfile.ZipFile(src) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    doc = json.loads(members["model.json"])
    if edit_doc is not None:
        edit_doc(doc)
    if isinstance(doc, dict) and isinstance(doc.get("checksums"), dict):
        # a crafted file: its checksums and digest agree with what it holds
        arrays = {n: d for n, d in {**members, **(extra or {})}.items() if n.endswith(".npy")}
        slio._seal(doc, {n: d for n, d in arrays.items() if n not in drop})
    members["model.json"] = json.dumps(doc).encode()
    members.update(extra or {})
    with zipfile.ZipFile(dst, "w") as zf:
        for name, data in members.items():
            if name not in drop:
                zf.writestr(name, data)
    return dst


def _set(key, value):
    def edit(doc):
        doc[key] = value

    return edit


def _set_attr(name, node):
    def edit(doc):
        doc["attributes"][name] = node

    return edit


def _pickled_npy():
    buf = stdio.BytesIO()
    np.save(buf, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    return buf.getvalue()


@pytest.mark.parametrize(
    "case, match",
    [
        ("not_zip", "not a zip archive"),
        ("empty", "not a zip archive"),
        ("truncated", "not a zip archive|corrupt or truncated"),
        ("bitflip", "corrupt"),
        ("no_json", "has no model.json"),
        ("bad_json", "not valid JSON"),
        ("json_list", "not a scratchlearn model file"),
        ("other_format", "not a scratchlearn model file"),
        ("newer_version", "format version 3.*reads up to version 2.*Upgrade"),
        ("bad_version", "invalid format_version"),
        ("no_params", "missing or invalid 'params'"),
        ("class_outside", "only name classes of scratchlearn modules"),
        ("class_builtin_eval", "only name classes of scratchlearn modules"),
        ("class_not_allowed", "not a scratchlearn estimator or serialisable"),
        ("class_via_module", "does not exist"),
        ("class_function", "not a scratchlearn estimator or serialisable"),
        ("class_missing", "does not exist"),
        ("class_dunder", "invalid class name"),
        ("class_bad_ref", "invalid class reference"),
        ("module_missing", "cannot import"),
        ("bad_params", "do not fit this version"),
        ("missing_array", "array 'arrays/0.npy' is missing"),
        ("pickled_array", "corrupt: array"),
        ("npz_member", "not a .npy array"),
        ("bad_member_name", "invalid array member name"),
        ("unknown_tag", "unknown value type 'pickle'"),
        ("bad_float", "malformed 'float'"),
        ("bad_type", "refusing type 'os.system'"),
        ("object_not_opted_in", "not a scratchlearn estimator or serialisable"),
        ("dunder_attribute", "invalid attribute name '__class__'"),
    ],
)
def test_malformed_files_are_refused(toys, tmp_path, case, match):
    ok = _valid_file(tmp_path)
    bad = tmp_path / "bad.slm"
    raw = ok.read_bytes()
    npz = stdio.BytesIO()
    np.savez(npz, a=np.arange(3))
    cases = {
        "not_zip": lambda: bad.write_text("coef,1.0\n"),
        "empty": lambda: bad.write_bytes(b""),
        "truncated": lambda: bad.write_bytes(raw[: len(raw) // 2]),
        "bitflip": lambda: bad.write_bytes(raw[:60] + bytes([raw[60] ^ 0xFF]) + raw[61:]),
        "no_json": lambda: _rewrite(ok, bad, drop=("model.json",)),
        "bad_json": lambda: _rewrite(ok, bad, extra={"model.json": b"{not json"}),
        "json_list": lambda: _rewrite(ok, bad, extra={"model.json": b"[1, 2]"}),
        "other_format": lambda: _rewrite(ok, bad, _set("format", "keras")),
        "newer_version": lambda: _rewrite(ok, bad, _set("format_version", 3)),
        "bad_version": lambda: _rewrite(ok, bad, _set("format_version", "1")),
        "no_params": lambda: _rewrite(ok, bad, _set("params", None)),
        "class_outside": lambda: _rewrite(ok, bad, _set("class", "os:system")),
        "class_builtin_eval": lambda: _rewrite(ok, bad, _set("class", "builtins:eval")),
        "class_not_allowed": lambda: _rewrite(
            ok, bad, _set("class", "scratchlearn.utils._param_validation:Interval")
        ),
        "class_via_module": lambda: _rewrite(
            ok, bad, _set("class", "scratchlearn.base:np.ndarray")
        ),
        "class_function": lambda: _rewrite(ok, bad, _set("class", "scratchlearn.base:clone")),
        "class_missing": lambda: _rewrite(ok, bad, _set("class", "scratchlearn.base:Nope")),
        "class_dunder": lambda: _rewrite(ok, bad, _set("class", "scratchlearn.base:__class__")),
        "class_bad_ref": lambda: _rewrite(ok, bad, _set("class", "scratchlearn.base.ToyModel")),
        "module_missing": lambda: _rewrite(ok, bad, _set("class", "scratchlearn.nothere:X")),
        "bad_params": lambda: _rewrite(ok, bad, _set("params", {"gamma": 1})),
        "missing_array": lambda: _rewrite(ok, bad, drop=("arrays/0.npy",)),
        "pickled_array": lambda: _rewrite(ok, bad, extra={"arrays/0.npy": _pickled_npy()}),
        "npz_member": lambda: _rewrite(ok, bad, extra={"arrays/0.npy": npz.getvalue()}),
        "bad_member_name": lambda: _rewrite(
            ok, bad, _set_attr("coef_", {"$type": "ndarray", "member": "../../etc/passwd"})
        ),
        "unknown_tag": lambda: _rewrite(ok, bad, _set_attr("x_", {"$type": "pickle"})),
        "bad_float": lambda: _rewrite(
            ok, bad, _set_attr("x_", {"$type": "float", "value": "__import__"})
        ),
        "bad_type": lambda: _rewrite(
            ok, bad, _set_attr("x_", {"$type": "type", "value": "os.system"})
        ),
        "dunder_attribute": lambda: _rewrite(ok, bad, _set_attr("__class__", "x")),
        "object_not_opted_in": lambda: _rewrite(
            ok,
            bad,
            _set_attr(
                "x_", {"$type": "object", "class": "scratchlearn.base:ToyNotOptedIn", "state": {}}
            ),
        ),
    }
    cases[case]()
    with pytest.raises(ModelFileError, match=match):
        slio.load(bad)
    assert issubclass(ModelFileError, ValueError)


def test_missing_file_or_directory(toys, tmp_path):
    with pytest.raises(FileNotFoundError):
        slio.load(tmp_path / "nope.slm")
    with pytest.raises(FileNotFoundError, match="directory .*nowhere does not exist"):
        slio.save(ToyModel(), tmp_path / "nowhere" / "m.slm")


# -- every registered estimator ----------------------------------------------------------------
_METHODS = (
    "predict",
    "predict_proba",
    "predict_log_proba",
    "decision_function",
    "transform",
    "score_samples",
    "kneighbors",  # a neighbour index (task "neighbors"): distances and indices of the nearest
)


def _outputs(est, X, y):
    out = {}
    for method in _METHODS:
        if not hasattr(est, method):
            continue
        arg = y if type(est).__name__ in ("LabelEncoder", "LabelBinarizer") else X
        try:
            result = getattr(est, method)(arg)
        except (AttributeError, NotImplementedError) as exc:  # e.g. available only for some params
            out[method] = ("unavailable", type(exc).__name__)
            continue
        if isinstance(result, list):  # a sequence labeller's tag lists: tokens, then lengths
            out[method + " tokens"] = np.asarray([t for seq in result for t in seq])
            result = [len(seq) for seq in result]
        out[method] = result.toarray() if sp.issparse(result) else np.asarray(result)
    return out


@pytest.mark.parametrize("entry", all_estimators(), ids=lambda e: e.name)
def test_registered_estimator_round_trip(entry, tmp_path):
    try:
        cls = entry.cls
    except (ImportError, AttributeError) as exc:
        pytest.skip(f"{entry.name} is not importable yet: {exc}")
    X, y = problem_for(entry)
    est = cls(**entry.demo_params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if X is None:
            est.fit(y)  # label transformers
        elif y is None:
            est.fit(X)
        else:
            est.fit(X, y)
        before = _outputs(est, X, y)
        back = _roundtrip(est, tmp_path)
        after = _outputs(back, X, y)
    assert type(back) is cls
    _same(back.get_params(deep=True), est.get_params(deep=True))
    assert before.keys() == after.keys() and before, "no output method to compare"
    for method, value in before.items():
        if isinstance(value, tuple):
            assert after[method] == value
        else:
            assert after[method].dtype == value.dtype, method
            np.testing.assert_array_equal(after[method], value, err_msg=method)  # exact


def test_text_pipeline_round_trip(tmp_path):
    pytest.importorskip("scratchlearn.pipeline", reason="scratchlearn.pipeline not written yet")
    pytest.importorskip(
        "scratchlearn.feature_extraction.text",
        reason="scratchlearn.feature_extraction.text not written yet",
    )
    from scratchlearn.feature_extraction.text import CountVectorizer
    from scratchlearn.naive_bayes import MultinomialNB
    from scratchlearn.pipeline import make_pipeline

    docs = np.array(
        ["free prize now", "lunch today?", "win cash now", "see you later"] * 3, dtype=object
    )
    y = np.array(["spam", "ham", "spam", "ham"] * 3, dtype=object)
    pipe = make_pipeline(CountVectorizer(ngram_range=(1, 2)), MultinomialNB()).fit(docs, y)
    back = _roundtrip(pipe, tmp_path)
    np.testing.assert_array_equal(back.predict(docs), pipe.predict(docs))
    np.testing.assert_array_equal(back.predict_proba(docs), pipe.predict_proba(docs))
    assert back.steps[0][1].vocabulary_ == pipe.steps[0][1].vocabulary_


# -- untrusted files: sizes, members, zip header fields, checksums, fitted state ----------------
def _members(path):
    with zipfile.ZipFile(path) as zf:
        return [(n, zf.read(n)) for n in zf.namelist()], zf.infolist()


def _zip(path, members, method=zipfile.ZIP_DEFLATED):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names
        with zipfile.ZipFile(path, "w", method) as zf:
            for name, data in members:
                zf.writestr(name, data)
    return path


def test_changed_or_swapped_content_is_refused_by_checksums(toys, tmp_path):
    ok = _valid_file(tmp_path)
    members, _ = _members(ok)
    doc = json.loads(dict(members)["model.json"])
    doc["params"]["alpha"] = 2.0  # an edit that keeps every type: only the digest sees it
    edited = [(n, json.dumps(doc).encode() if n == "model.json" else d) for n, d in members]
    with pytest.raises(ModelFileError, match="does not match its digest"):
        slio.load(_zip(tmp_path / "a.slm", edited))
    swapped = [(n, _npy(np.arange(4.0)[::-1]) if n == "arrays/0.npy" else d) for n, d in members]
    with pytest.raises(ModelFileError, match="'arrays/0.npy' does not match its checksum"):
        slio.load(_zip(tmp_path / "b.slm", swapped))


def _npy(array):
    buf = stdio.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


@pytest.mark.parametrize(
    "case, match",
    [
        ("duplicate", "member 'arrays/0.npy' appears twice"),
        ("extra_array", "member 'arrays/9.npy' is not referenced"),
        ("extra_file", "unexpected member 'notes.txt'"),
        ("method", "member 'arrays/0.npy' uses compression method 99"),
        ("encrypted", "member 'arrays/0.npy' is encrypted"),
        ("crc", "member 'arrays/0.npy' cannot be read .*CRC|does not match"),
    ],
)
def test_zip_structure_is_checked_before_reading(toys, tmp_path, case, match):
    ok = _valid_file(tmp_path)
    members, infos = _members(ok)
    arrays = dict(members)
    path = tmp_path / "bad.slm"
    if case == "duplicate":
        _zip(path, members + [("arrays/0.npy", arrays["arrays/0.npy"])])
    elif case == "extra_array":
        _zip(path, members + [("arrays/9.npy", _npy(np.zeros(2)))])
    elif case == "extra_file":
        _zip(path, members + [("notes.txt", b"hi")])
    else:
        raw = bytearray(_zip(path, members, zipfile.ZIP_STORED).read_bytes())
        with zipfile.ZipFile(path) as zf:
            info, start = zf.getinfo("arrays/0.npy"), zf.start_dir
        central = start + raw[start:].index(b"arrays/0.npy") - 46
        if case == "method":
            raw[info.header_offset + 8 : info.header_offset + 10] = (99).to_bytes(2, "little")
            raw[central + 10 : central + 12] = (99).to_bytes(2, "little")
        elif case == "encrypted":
            raw[info.header_offset + 6] |= 1
            raw[central + 8] |= 1
        else:  # one byte of the stored data changed: its CRC no longer matches
            data_at = info.header_offset + 30 + len("arrays/0.npy") + 130  # past the .npy header
            raw[data_at] ^= 0xFF
        path.write_bytes(bytes(raw))
    with pytest.raises(ModelFileError, match=match):
        slio.load(path)


def test_sizes_are_checked_against_the_limits(toys, tmp_path):
    est = ToyModel().fit(np.eye(40), np.arange(40.0))
    path = tmp_path / "m.slm"
    slio.save(est, path)
    with pytest.raises(ModelFileError, match="more than max_bytes=100"):
        slio.load(path, max_bytes=100)
    with pytest.raises(ModelFileError, match="more than max_members=1"):
        slio.load(path, max_members=1)
    back = slio.load(path, max_bytes=320, max_members=2)  # coef_: 40 float64 = 320 bytes
    np.testing.assert_array_equal(back.coef_, est.coef_)
    with pytest.raises(ValueError, match="max_bytes must be a non-negative int"):
        slio.load(path, max_bytes=-1)


def test_fitted_state_is_checked_against_the_estimator(tmp_path):
    from scratchlearn.linear_model import LogisticRegression

    X = np.random.default_rng(0).normal(size=(30, 3))
    y = np.repeat([0, 1, 2], 10)
    path = tmp_path / "m.slm"
    slio.save(LogisticRegression().fit(X, y), path)
    members, _ = _members(path)
    doc = json.loads(dict(members)["model.json"])
    coef = doc["attributes"]["coef_"]["member"]
    arrays = {n: d for n, d in members if n != "model.json"}

    def crafted(coef_):
        new = {**arrays, coef: _npy(coef_)}
        sealed = slio._seal(json.loads(json.dumps(doc)), new)
        return _zip(tmp_path / "c.slm", [("model.json", json.dumps(sealed).encode()), *new.items()])

    cases = [
        (np.zeros((3, 4)), r"coef_ has length 4 along axis 1, expected 3 \(n_features_in_\)"),
        (np.zeros((3, 3), dtype=np.int64), "coef_ has dtype int64, expected float64"),
        (np.zeros((3, 3), dtype=bool), "coef_ has dtype bool, expected float64"),
        (np.zeros((2, 3)), r"intercept_ has length 3 along axis 0, expected 2 \(n_rows\)"),
        (np.zeros((3, 3)).T[None], "coef_ has 3 dimensions"),
    ]
    for value, match in cases:
        with pytest.raises(ModelFileError, match=match):
            slio.load(crafted(coef_=value))


# A file written by format version 1 (scratchlearn before the checksums): a decision tree
# fitted on six points, and a ridge; both must still load and predict.
_V1_TREE = (
    "UEsDBBQAAAAIALW1e10PAC3F2QEAADgGAAAKAAAAbW9kZWwuanNvbq2UTY7bMAyF9z6FIXQ5dZ2ZTn+ybY/QvcDY9FiF"
    "JAsSnTYIcveKiuxx6rRAjS6SxaP4kXyifC5K0Q3eAIl9KULjgZpeI3j71gwtavEwH5BH9EENNh7csbo8vIiJutpVdcpr"
    "NITwO7cij1jJFMOw/4qN4sxvUf3CmuoU+pTuwIPh/HNRRljjJGjXQxTqqn5IGifIH6heeu7fjlpfda8Ife7nRVklkmzg"
    "p2zRUR/lx1npEGj0GJYA1mO3nbTRhNuIslIZN8YKpwhrPELARUscD2CcxpAI2a3bQHBa0WsTMXKdQXYeGop9T6kT1YNt"
    "ByMDAaViSUyUOCcPecBAoigv7BsQeXUYCWfv7DykjLXmwvkOZD5Wijd0cswXtgXv4ZRsiw2iOVzLJDW8qyvrTrFcqsf4"
    "BWlt7KvKV3+n2nD4jg3lYn9bGv7f86bks5MfiRdTe6Vbj+xeR7P8p7HuDbabBsujLaE+b9m/Ux/X1OzNJtzTGkd99Lkf"
    "dLsJ+H4NnFZ8E+95zbPpJU0PYBP1w5p6fTXYyv+A/7jGH0GP267o0x0HuMFmGC3v0PNsS1zvY+r4KUurj9TN+70R86vb"
    "1OHne3c0jORGYuCOpUuRfumjYpCgBeKv7/lSXH4BUEsDBBQAAAAIALW1e11+avvJSQAAAJAAAAAMAAAAYXJyYXlzLzAu"
    "bnB5m+wX6hsQychQxlCtnpJanFykbqWgbpNpoa6joJ6WX1RSlJgXn1+UkgoSd0vMKU4FihdnJBakAvkaRjqaOgq1ChQA"
    "LgYoYITSAFBLAwQUAAAACAC1tXtdApDWkU8AAACoAAAADAAAAGFycmF5cy8xLm5weZvsF+obEMnIUMZQrZ6SWpxcpG6l"
    "oG6TaaGuo6Cell9UUpSYF59flJIKEndLzClOBYoXZyQWpAL5GqY6mjoKtQoUAC5GBgj4DwXMaHwYAABQSwMEFAAAAAgA"
    "tbV7Xf0XcopPAAAAqAAAAAwAAABhcnJheXMvMi5ucHmb7BfqGxDJyFDGUK2eklqcXKRupaBuk2mhrqOgnpZfVFKUmBef"
    "X5SSChJ3S8wpTgWKF2ckFqQC+RqmOpo6CrUKFAAuJgYI+A8FLGh8GAAAUEsDBBQAAAAIALW1e13vWrF0TwAAAKgAAAAM"
    "AAAAYXJyYXlzLzMubnB5m+wX6hsQychQxlCtnpJanFykbqWgbpNpoa6joJ6WX1RSlJgXn1+UkgoSd0vMKU4FihdnJBak"
    "AvkapjqaOgq1ChQALgYo+PcfAhjR+DAaAFBLAwQUAAAACAC1tXtdbsMThlEAAACoAAAADAAAAGFycmF5cy80Lm5weZvs"
    "F+obEMnIUMZQrZ6SWpxcpG6loG6TZqGuo6Cell9UUpSYF59flJIKEndLzClOBYoXZyQWpAL5GqY6mjoKtQoUAC4GMHhg"
    "D6EZDmDnMxwAAFBLAwQUAAAACAC1tXtd+OID11AAAACoAAAADAAAAGFycmF5cy81Lm5weZvsF+obEMnIUMZQrZ6SWpxc"
    "pG6loG6TZqGuo6Cell9UUpSYF59flJIKEndLzClOBYoXZyQWpAL5GqY6mjoKtQoUAC4GMHhgz4ACbqDxGRgAUEsDBBQA"
    "AAAIALW1e11OYKMIUgAAAKgAAAAMAAAAYXJyYXlzLzYubnB5m+wX6hsQychQxlCtnpJanFykbqWgbpNpoa6joJ6WX1RS"
    "lJgXn1+UkgoSd0vMKU4FihdnJBakAvkapjqaOgq1ChQALjYGCGCC0ixQmhFKM0NpAFBLAwQUAAAACAC1tXtdVI8U71UA"
    "AACoAAAADAAAAGFycmF5cy83Lm5weZvsF+obEMnIUMZQrZ6SWpxcpG6loG6TZqGuo6Cell9UUpSYF59flJIKEndLzClO"
    "BYoXZyQWpAL5GqY6mjoKtQoUAC4GMJBwgNAMUFoASn+wh9AcDgBQSwMEFAAAAAgAtbV7XahiNileAAAA0AAAAAwAAABh"
    "cnJheXMvOC5ucHmb7BfqGxDJyFDGUK2eklqcXKRupaBuk2ahrqOgnpZfVFKUmBefX5SSChJ3S8wpTgWKF2ckFqQC+Rqm"
    "OgqGOgpGmjoKtQrkAS4GMHhgj0p/gNIwcAHKf4FDHgY+2AMAUEsDBBQAAAAIALW1e13dnZvQSAAAAIgAAAAMAAAAYXJy"
    "YXlzLzkubnB5m+wX6hsQychQxlCtnpJanFykbqWgbpNpoa6joJ6WX1RSlJgXn1+UkgoSd0vMKU4FihdnJBakAvkahjqa"
    "Ogq1ChQALiYGCAAAUEsBAhQDFAAAAAgAtbV7XQ8ALcXZAQAAOAYAAAoAAAAAAAAAAAAAAIABAAAAAG1vZGVsLmpzb25Q"
    "SwECFAMUAAAACAC1tXtdfmr7yUkAAACQAAAADAAAAAAAAAAAAAAAgAEBAgAAYXJyYXlzLzAubnB5UEsBAhQDFAAAAAgA"
    "tbV7XQKQ1pFPAAAAqAAAAAwAAAAAAAAAAAAAAIABdAIAAGFycmF5cy8xLm5weVBLAQIUAxQAAAAIALW1e139F3KKTwAA"
    "AKgAAAAMAAAAAAAAAAAAAACAAe0CAABhcnJheXMvMi5ucHlQSwECFAMUAAAACAC1tXtd71qxdE8AAACoAAAADAAAAAAA"
    "AAAAAAAAgAFmAwAAYXJyYXlzLzMubnB5UEsBAhQDFAAAAAgAtbV7XW7DE4ZRAAAAqAAAAAwAAAAAAAAAAAAAAIAB3wMA"
    "AGFycmF5cy80Lm5weVBLAQIUAxQAAAAIALW1e1344gPXUAAAAKgAAAAMAAAAAAAAAAAAAACAAVoEAABhcnJheXMvNS5u"
    "cHlQSwECFAMUAAAACAC1tXtdTmCjCFIAAACoAAAADAAAAAAAAAAAAAAAgAHUBAAAYXJyYXlzLzYubnB5UEsBAhQDFAAA"
    "AAgAtbV7XVSPFO9VAAAAqAAAAAwAAAAAAAAAAAAAAIABUAUAAGFycmF5cy83Lm5weVBLAQIUAxQAAAAIALW1e12oYjYp"
    "XgAAANAAAAAMAAAAAAAAAAAAAACAAc8FAABhcnJheXMvOC5ucHlQSwECFAMUAAAACAC1tXtd3Z2b0EgAAACIAAAADAAA"
    "AAAAAAAAAAAAgAFXBgAAYXJyYXlzLzkubnB5UEsFBgAAAAALAAsAfAIAAMkGAAAAAA=="
)
_V1_RIDGE = (
    "UEsDBBQAAAAIALW1e12Q4RPrJQEAABQCAAAKAAAAbW9kZWwuanNvbl2RwW7DIAyG73kKhHZsszStVrWPsdNuyE2cBo0A"
    "Mk61qMq7D0hUZbuA+Gz/v22ehZCdowFYXoUMDQE3vUEgux9ci0buXgnqgRS0szHxkOg2eROTVXkoq1zXGAjhv25ptI23"
    "yvKlIt3e8fqZzlzjgWBIRc9CCAnG95AMy2qX3o3zk/qKgGnETDrNSltGatDzNjDAj9KRR2ZHYzILzjwykTCyk5mxM8kA"
    "94eqEHNqAZhJ30bGVxtWdQg8EobopSKtN3LpLZveGQzf06Jps7NaNyVkrwM7mtSfXth5RQjB2UXB2Sh2x1auk2KnVn8h"
    "33jymLJsC0Sw2MQZcbit8yQa3qvS+knG2JxFXotJSvFfTuf6o6rPx0u6j6fTOvCADC1wWvRzLuZfUEsDBBQAAAAIALW1"
    "e12Z2PYdVQAAAJAAAAAMAAAAYXJyYXlzLzAubnB5m+wX6hsQychQxlCtnpJanFykbqWgbpNmoa6joJ6WX1RSlJgXn1+U"
    "kgoSd0vMKU4FihdnJBakAvkaRjqaOgq1ChQALp3obTk3N721r/n66urq8N/7AVBLAQIUAxQAAAAIALW1e12Q4RPrJQEA"
    "ABQCAAAKAAAAAAAAAAAAAACAAQAAAABtb2RlbC5qc29uUEsBAhQDFAAAAAgAtbV7XZnY9h1VAAAAkAAAAAwAAAAAAAAA"
    "AAAAAIABTQEAAGFycmF5cy8wLm5weVBLBQYAAAAAAgACAHIAAADMAQAAAAA="
)


def test_files_of_the_previous_format_version_load(tmp_path):
    import base64

    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0], [0.0, 3.0], [1.0, 2.0]])
    for blob, name in ((_V1_TREE, "DecisionTreeClassifier"), (_V1_RIDGE, "Ridge")):
        path = tmp_path / f"{name}.slm"
        path.write_bytes(base64.b64decode(blob))
        with zipfile.ZipFile(path) as zf:
            assert json.loads(zf.read("model.json"))["format_version"] == 1
        model = slio.load(path)
        assert type(model).__name__ == name
        if name == "Ridge":
            np.testing.assert_allclose(model.predict(X), X @ model.coef_ + model.intercept_)
        else:
            np.testing.assert_array_equal(model.predict(X), [0, 0, 1, 1, 0, 1])
    assert set(slio.FORMAT_HISTORY) == set(range(1, slio.FORMAT_VERSION + 1))
    doc = json.loads(zipfile.ZipFile(tmp_path / "Ridge.slm").read("model.json"))
    doc["format_version"] = 0
    with pytest.raises(ModelFileError, match="invalid format_version 0"):
        slio.load(_zip(tmp_path / "v0.slm", [("model.json", json.dumps(doc).encode())]))


@pytest.mark.parametrize(
    "pad, match",
    [
        ('["' + "x" * 4000 + '", ' + "[" * 150 + "]" * 150 + "]", "nests deeper than 100 levels"),
        ("[" + ",".join(["[]"] * 20_000) + "]", r"model.json holds 200\d\d objects and lists"),
    ],
)
def test_json_shape_is_bounded_before_parsing(toys, tmp_path, pad, match):
    ok = _valid_file(tmp_path)
    members, _ = _members(ok)
    text = dict(members)["model.json"].decode()
    text = text[: text.rindex("}")] + f', "pad": {pad}}}'
    bad = [(n, text.encode() if n == "model.json" else d) for n, d in members]
    with pytest.raises(ModelFileError, match=match):
        slio.load(_zip(tmp_path / "bad.slm", bad))
