"""Reading a model file's zip archive as untrusted input: every size is checked before it is
read, and nothing is read past what was declared.

The order of the checks is the point. Before a byte of any member is decompressed:

1. the end-of-central-directory record gives the number of members, compared with
   ``max_members`` (so a directory of a million entries is never parsed);
2. the directory lists unique names, each ``model.json`` or ``arrays/<k>.npy``, stored or
   deflated (the two methods :func:`~scratchlearn.io.save` and ordinary zip tools write) and
   not encrypted; and no member holds more compressed bytes than any compressor writes for
   the size it declares (a stream that would inflate beyond it);
3. ``model.json`` declares at most :data:`JSON_BYTES_PER_MEMBER` bytes per allowed member; it is
   read through a bounded reader, its count of objects and lists bounded before parsing, and
   its nesting depth after, against :data:`MAX_JSON_DEPTH`;
4. the members are exactly ``model.json`` and the arrays the JSON references;
5. each array's ``.npy`` header is read (a few hundred bytes) and its data size,
   ``prod(shape) * itemsize``, summed over the arrays, compared with ``max_bytes``, and the
   member's decompressed size in the zip directory must equal header plus data.

Only then is array data read, in chunks of at most :data:`CHUNK` bytes and never beyond the
declared size, into an array allocated once at its declared size; the zip CRC is checked as the
last byte arrives, then the member's SHA-256 against the checksum ``model.json`` records (format
version 2). Every refusal is a :class:`~scratchlearn.exceptions.ModelFileError` naming the
member.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import struct
import zipfile
import zlib

import numpy as np

from ..exceptions import ModelFileError
from ._classes import MEMBER, TAG

__all__ = [
    "MAX_BYTES",
    "MAX_MEMBERS",
    "JSON_BYTES_PER_MEMBER",
    "JSON_CONTAINERS_PER_BYTE",
    "MAX_JSON_DEPTH",
    "CHUNK",
    "Archive",
]

#: Default bound on the total size of a model's arrays (2 GiB). The largest models of this
#: library keep their training set (k-nearest neighbours, k-medoids): 2 GiB is a million
#: samples of 268 float64 features, and every model of the documentation and tests is under
#: 2 MB. ``load(..., max_bytes=...)`` raises it.
MAX_BYTES = 2**31
#: Default bound on the number of members: a tree writes about 10 arrays, so 32,768 members
#: allow a forest of about 3,000 trees (2,000 by the bound on model.json below).
#: ``load(..., max_members=...)`` raises it.
MAX_MEMBERS = 2**15
#: Bytes of ``model.json`` allowed per member (at least 1 MiB in all): 4 MiB for the default
#: ``max_members`` (a forest of 100 trees writes 180 kB of JSON for its 1,000 members).
#: Parsing JSON costs up to 16 times its size in Python objects, and checking its digest
#: writes it out again: the largest document the default admits peaks near 120 MB (measured
#: in tests/test_io_fuzz.py).
JSON_BYTES_PER_MEMBER = 128
#: Most containers (``{`` and ``[``) per byte of ``model.json``: an empty list costs 56 bytes
#: of memory for its 3 bytes of JSON; every model of the registry writes fewer than 1 in 70.
JSON_CONTAINERS_PER_BYTE = 1 / 16
#: Bound on the nesting depth of ``model.json``: the deepest model of the registry (a forest of
#: trees) nests 8 levels; a pipeline of one-vs-rest forests stays under 30.
MAX_JSON_DEPTH = 100
#: Largest piece of a member decompressed at once (1 MiB).
CHUNK = 2**20

_JSON = "model.json"
_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}
_EOCD = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_EOCD = b"PK\x06\x06"
# zipfile's failures while reading a member, each turned into a ModelFileError naming it
_ZIP_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    OSError,
    NotImplementedError,
    RuntimeError,
    ValueError,
    struct.error,
    OverflowError,
    UnicodeDecodeError,
)


def declared_member_count(fp) -> int | None:
    """The number of members the end-of-central-directory record declares (zip64 too), or None
    when the record cannot be found (zipfile then refuses the file itself)."""
    fp.seek(0, 2)
    size = fp.tell()
    tail_len = min(size, 22 + 65535)
    fp.seek(size - tail_len)
    tail = fp.read(tail_len)
    at = tail.rfind(_EOCD)
    if at < 0 or len(tail) - at < 22:
        return None
    count = struct.unpack("<H", tail[at + 10 : at + 12])[0]
    locator = tail[at - 20 : at] if at >= 20 else b""
    if locator[:4] == _ZIP64_LOCATOR:
        offset = struct.unpack("<Q", locator[8:16])[0]
        if offset + 56 <= size:
            fp.seek(offset)
            record = fp.read(56)
            if record[:4] == _ZIP64_EOCD:
                count = max(count, struct.unpack("<Q", record[32:40])[0])
    return count


def _compressed_bound(info: zipfile.ZipInfo) -> int:
    """Most compressed bytes a member of ``file_size`` bytes can honestly take: the size itself
    when stored; deflated, at worst every byte a 9-bit literal (1/8 more) plus block headers.
    A member holding more is a stream that would inflate beyond what it declares."""
    n = info.file_size
    return n if info.compress_type == zipfile.ZIP_STORED else n + n // 8 + 1024


def _depth(node) -> int:
    """Nesting depth of a parsed JSON value, without recursion."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, depth)
        if depth > MAX_JSON_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def referenced_members(node) -> list:
    """The array members a JSON document refers to (``{"$type": "ndarray", "member": ...}``),
    once per reference."""
    found, stack = [], [node]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if value.get(TAG) == "ndarray" and isinstance(value.get("member"), str):
                found.append(value["member"])
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


class _Counting:
    """A reader that counts the bytes read through it (the length of a .npy header)."""

    def __init__(self, fh):
        self.fh, self.count = fh, 0

    def read(self, n=-1):
        data = self.fh.read(n)
        self.count += len(data)
        return data


class Archive:
    """An open model file whose directory has been checked; reads its members within bounds."""

    def __init__(self, zf: zipfile.ZipFile, name: str, *, max_bytes: int, max_members: int):
        self.zf, self.name = zf, name
        self.max_bytes, self.max_members = max_bytes, max_members
        self.headers: dict[str, tuple] = {}
        self.checksums: dict[str, str] | None = None  # member -> SHA-256 (format version 2)
        infos = zf.infolist()
        if len(infos) > max_members:
            self.refuse(f"it has {len(infos)} members, more than max_members={max_members}")
        self.infos: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            member = info.filename
            if member in self.infos:
                self.refuse(f"member {member!r} appears twice")
            if member != _JSON and not MEMBER.match(member):
                self.refuse(f"unexpected member {member!r}")
            if info.compress_type not in _METHODS:
                self.refuse(
                    f"member {member!r} uses compression method {info.compress_type}; "
                    "model files are stored or deflated"
                )
            if info.flag_bits & 0x41:  # bit 0: encrypted; bit 6: strong encryption
                self.refuse(f"member {member!r} is encrypted")
            if info.compress_size > _compressed_bound(info):
                self.refuse(
                    f"member {member!r} holds {info.compress_size} compressed bytes, more "
                    f"than any compressor writes for the {info.file_size} bytes it declares"
                )
            self.infos[member] = info

    def refuse(self, why: str):
        raise ModelFileError(f"{self.name} is corrupt: {why}")

    @contextlib.contextmanager
    def _reading(self, member: str):
        """Open ``member``, turning any failure of zipfile into a ModelFileError naming it."""
        try:
            with self.zf.open(self.infos[member]) as fh:
                yield fh
        except ModelFileError:
            raise
        except _ZIP_ERRORS as exc:  # ModelFileError, a ValueError, is re-raised above
            self.refuse(f"member {member!r} cannot be read ({type(exc).__name__}: {exc})")

    def _read_exactly(self, fh, member: str, out: memoryview) -> None:
        """Fill ``out`` from ``fh`` in chunks of at most CHUNK bytes, then check the member
        ends there (reading its end also checks its CRC)."""
        pos, n = 0, len(out)
        while pos < n:
            piece = fh.read(min(CHUNK, n - pos))
            if not piece:
                self.refuse(f"member {member!r} ends after {pos} of its {n} declared bytes")
            out[pos : pos + len(piece)] = piece
            pos += len(piece)
        if fh.read(1):
            self.refuse(f"member {member!r} is longer than it declares")

    # -- model.json ----------------------------------------------------------------------------
    def document(self) -> dict:
        if _JSON not in self.infos:
            raise ModelFileError(f"{self.name} is not a scratchlearn model file: it has no {_JSON}")
        size = self.infos[_JSON].file_size
        limit = max(2**20, JSON_BYTES_PER_MEMBER * self.max_members)
        if size > limit:
            self.refuse(
                f"{_JSON} declares {size} bytes, more than the {limit} allowed for "
                f"max_members={self.max_members}"
            )
        raw = bytearray(size)
        with self._reading(_JSON) as fh:
            self._read_exactly(fh, _JSON, memoryview(raw))
        containers = raw.count(b"{") + raw.count(b"[")
        if containers > size * JSON_CONTAINERS_PER_BYTE + 64:
            self.refuse(f"{_JSON} holds {containers} objects and lists in {size} bytes")
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise ModelFileError(
                f"{self.name} is corrupt: {_JSON} is not valid JSON ({exc})"
            ) from None
        del raw
        if _depth(doc) > MAX_JSON_DEPTH:
            self.refuse(f"{_JSON} nests deeper than {MAX_JSON_DEPTH} levels")
        return doc

    # -- arrays --------------------------------------------------------------------------------
    def check_members(self, doc) -> None:
        """The members must be model.json and the arrays ``doc`` references, whose declared
        sizes must add up to at most ``max_bytes``; reads the .npy headers only. Each array is
        referenced once (save writes one member per array), so the sum bounds what is read."""
        references = referenced_members(doc)
        referenced = set(references)
        if len(referenced) != len(references):
            twice = sorted(m for m in referenced if references.count(m) > 1)[0]
            self.refuse(f"array {twice!r} is referenced more than once by {_JSON}")
        for member in sorted(referenced):
            if not MEMBER.match(member):
                raise ModelFileError(f"invalid array member name {member!r}")
            if member not in self.infos:
                self.refuse(f"array {member!r} is missing")
        for member in sorted(set(self.infos) - referenced - {_JSON}):
            self.refuse(f"member {member!r} is not referenced by {_JSON}")
        if self.checksums is not None and set(self.checksums) != referenced:
            self.refuse(f"the checksums of {_JSON} do not list exactly the arrays it references")
        total = 0
        for member in sorted(referenced):
            total += self._header(member)[3]
            if total > self.max_bytes:
                self.refuse(
                    f"its arrays declare more than max_bytes={self.max_bytes} bytes (at array "
                    f"{member!r}); pass a larger max_bytes to load a model this large"
                )

    def _header(self, member: str):
        """(dtype, shape, fortran_order, data bytes, header bytes) from the .npy header, the
        sizes checked against the limits and the zip directory."""
        if member in self.headers:
            return self.headers[member]
        with self._reading(member) as raw:
            fh = _Counting(raw)
            try:
                version = np.lib.format.read_magic(fh)
                read = (
                    np.lib.format.read_array_header_1_0
                    if version == (1, 0)
                    else np.lib.format.read_array_header_2_0
                )
                if version not in ((1, 0), (2, 0)):
                    raise ValueError(f"unsupported .npy version {version}")
                shape, fortran, dtype = read(fh)
            except (ModelFileError, zipfile.BadZipFile, zlib.error, OSError):
                raise  # a failure of the zip member, reported by _reading
            except Exception as exc:  # noqa: BLE001 - whatever numpy's parser makes of garbage
                self.refuse(f"{member!r} is not a .npy array ({type(exc).__name__}: {exc})")
            header_len = fh.count
        if dtype.hasobject:
            self.refuse(f"array {member!r} holds Python objects, which model files never store")
        if any(type(n) is not int or n < 0 for n in shape):
            self.refuse(f"array {member!r} declares an invalid shape {shape!r}")
        nbytes = math.prod(shape) * dtype.itemsize
        if dtype.itemsize == 0 and math.prod(shape) > self.max_bytes:
            self.refuse(f"array {member!r} declares {math.prod(shape)} empty elements")
        if nbytes > self.max_bytes:
            self.refuse(
                f"array {member!r} declares {nbytes} bytes (shape {shape}, dtype {dtype}), "
                f"more than max_bytes={self.max_bytes}"
            )
        declared = self.infos[member].file_size
        if declared != header_len + nbytes:
            self.refuse(
                f"array {member!r} declares {declared} bytes in the zip directory, but its "
                f".npy header describes {header_len} + {nbytes}"
            )
        self.headers[member] = (dtype, shape, fortran, nbytes, header_len)
        return self.headers[member]

    def array(self, member: str) -> np.ndarray:
        """The array stored in ``member``, read within its declared size (and checked against
        its checksum, when model.json has them)."""
        dtype, shape, fortran, nbytes, header_len = self._header(member)
        buffer = np.empty(nbytes, dtype=np.uint8)
        with self._reading(member) as fh:
            header = fh.read(header_len)
            if len(header) != header_len:
                self.refuse(f"member {member!r} ends inside its .npy header")
            self._read_exactly(fh, member, memoryview(buffer))
        if self.checksums is not None:
            digest = hashlib.sha256(header)
            digest.update(memoryview(buffer))
            if digest.hexdigest() != self.checksums[member]:
                self.refuse(f"array {member!r} does not match its checksum in {_JSON}")
        if dtype.itemsize == 0:
            return np.zeros(shape, dtype=dtype)
        flat = buffer.view(dtype)
        return flat.reshape(shape[::-1]).T if fortran else flat.reshape(shape)
