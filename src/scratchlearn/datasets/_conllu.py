"""CoNLL-U reading and the bundled UD English Web Treebank (dev and test portions).

A CoNLL-U file holds sentences separated by blank lines. Lines starting with ``#`` are comments
(``# sent_id = …``, ``# text = …``); every other line has ten tab-separated columns, of which a
tagger needs three: ID (column 1), FORM (column 2, the word) and UPOS or XPOS (columns 4 and 5,
the tag). Only lines whose ID is a plain integer are words: a range ``6-7`` announces a
multi-word token (``Google's`` = ``Google`` + ``'s``, whose words follow on their own lines) and a
decimal ``24.1`` is an empty node of the enhanced dependencies; both are skipped.

The sentences come back as lists of token strings and the tags as lists of tag strings, the
input of :class:`~scratchlearn.structured.StructuredPerceptron`.
"""

from __future__ import annotations

import functools
import re

from ..utils import Bunch
from ._base import load_descr, read_text

__all__ = ["read_conllu", "load_ud_english_ewt"]

_COLUMNS = {"upos": 3, "xpos": 4}  # 0-based column of each tag set
_INTEGER_ID = re.compile(r"[1-9][0-9]*\Z")
_RANGE_ID = re.compile(r"[1-9][0-9]*-[1-9][0-9]*\Z")
_EMPTY_ID = re.compile(r"[0-9]+\.[1-9][0-9]*\Z")


def read_conllu(text: str, *, tagset: str = "upos", source: str = "<string>"):
    """Sentences and tags of a CoNLL-U document.

    Parameters
    ----------
    text : str
        The document (UTF-8 decoded).
    tagset : {"upos", "xpos"}
        Column 4 (Universal POS) or column 5 (language-specific, Penn Treebank for English).
    source : str
        Name used in error messages (a file name).

    Returns
    -------
    sentences : list of list of str
        The FORM of every word line, sentence by sentence.
    tags : list of list of str
        The chosen tag of the same lines.

    Raises
    ------
    ValueError
        Naming ``source`` and the line number, for a word line without ten tab-separated
        columns, an ID that is neither an integer, a range nor a decimal, a word ID out of
        sequence, or an empty FORM or tag.
    """
    if tagset not in _COLUMNS:
        raise ValueError(f"tagset must be 'upos' or 'xpos'; got {tagset!r}")
    col = _COLUMNS[tagset]
    sentences, tags, words, labels = [], [], [], []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip():
            if words:
                sentences.append(words)
                tags.append(labels)
            words, labels = [], []
            continue
        if line.startswith("#"):
            continue
        fields = line.split("\t")
        where = f"{source}, line {number}"
        if len(fields) != 10:
            raise ValueError(f"{where}: expected 10 tab-separated columns, found {len(fields)}")
        ident = fields[0]
        if _RANGE_ID.match(ident) or _EMPTY_ID.match(ident):
            continue  # a multi-word token's range, or an empty node: not a tagging unit
        if not _INTEGER_ID.match(ident):
            raise ValueError(f"{where}: malformed ID {ident!r} (an integer, n-m or n.k)")
        if int(ident) != len(words) + 1:
            raise ValueError(f"{where}: word ID {ident} follows word {len(words)}")
        if not fields[1] or not fields[col]:
            raise ValueError(f"{where}: empty FORM or {tagset.upper()} column")
        words.append(fields[1])
        labels.append(fields[col])
    if words:  # a file without a final blank line
        sentences.append(words)
        tags.append(labels)
    return sentences, tags


_FILES = {"dev": "en_ewt-ud-dev.conllu.xz", "test": "en_ewt-ud-test.conllu.xz"}


@functools.cache
def _parsed(split: str, tagset: str):
    sentences, tags = read_conllu(read_text(_FILES[split]), tagset=tagset, source=_FILES[split])
    return tuple(map(tuple, sentences)), tuple(map(tuple, tags))


def load_ud_english_ewt(split: str = "dev", *, tagset: str = "upos"):
    """UD English Web Treebank v2.16, one portion, as sentences and part-of-speech tags.

    ``split="dev"``: 2,001 sentences, 25,147 words; ``split="test"``: 2,077 sentences, 25,094
    words (web text: blogs, newsgroups, e-mails, reviews, answers). The portions share no
    document: train a tagger on ``dev`` and evaluate it on ``test``.

    Parameters
    ----------
    split : {"dev", "test"}
    tagset : {"upos", "xpos"}
        17 Universal POS tags, or the 49 Penn Treebank tags.

    Returns
    -------
    Bunch
        ``data`` (list of sentences, each a list of word strings), ``target`` (list of tag
        lists of the same lengths), ``target_names`` (sorted tags that occur), ``DESCR``,
        ``kind="sequences"``, ``task="sequence labelling"``. Fresh lists on every call.

    Licence CC BY-SA 4.0: see ``DESCR`` for the attribution and citation.
    """
    if split not in _FILES:
        raise ValueError(f"split must be 'dev' or 'test'; got {split!r}")
    if tagset not in _COLUMNS:
        raise ValueError(f"tagset must be 'upos' or 'xpos'; got {tagset!r}")
    sentences, tags = _parsed(split, tagset)
    return Bunch(
        data=[list(s) for s in sentences],
        target=[list(t) for t in tags],
        target_names=sorted({t for sent in tags for t in sent}),
        feature_names=["token"],
        DESCR=load_descr("ud_english_ewt"),
        kind="sequences",
        task="sequence labelling",
        frame=None,
    )
