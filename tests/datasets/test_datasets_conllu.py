"""The CoNLL-U reader and the bundled UD English-EWT portions."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from scratchlearn.datasets import load_ud_english_ewt, read_conllu
from scratchlearn.datasets._base import read_bytes

DOC = """# newdoc id = d1
# text = Google's fine.
1-2\tGoogle's\t_\t_\t_\t_\t_\t_\t_\t_
1\tGoogle\tGoogle\tPROPN\tNNP\t_\t3\tnsubj\t_\t_
2\t's\tbe\tAUX\tVBZ\t_\t3\tcop\t_\t_
3\tfine\tfine\tADJ\tJJ\t_\t0\troot\t_\t_
3.1\tfine\tfine\tADJ\tJJ\t_\t_\t_\t2:x\t_
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_

# text = Hi
1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\t_
"""


def test_reader_skips_comments_ranges_and_empty_nodes():
    sentences, tags = read_conllu(DOC)
    assert sentences == [["Google", "'s", "fine", "."], ["Hi"]]
    assert tags == [["PROPN", "AUX", "ADJ", "PUNCT"], ["INTJ"]]
    assert read_conllu(DOC, tagset="xpos")[1] == [["NNP", "VBZ", "JJ", "."], ["UH"]]
    # Windows line ends and several blank lines read the same
    assert read_conllu(DOC.replace("\n", "\r\n") + "\r\n\r\n") == (sentences, tags)


@pytest.mark.parametrize(
    "line, match",
    [
        (
            "1\tGoogle\tGoogle\tPROPN",
            "my.conllu, line 3: expected 10 tab-separated columns, found 4",
        ),
        ("x\tA\ta\tX\tX\t_\t0\troot\t_\t_", "line 3: malformed ID 'x'"),
        ("2\tA\ta\tX\tX\t_\t0\troot\t_\t_", "line 3: word ID 2 follows word 0"),
        ("1\t\ta\tX\tX\t_\t0\troot\t_\t_", "line 3: empty FORM or UPOS column"),
    ],
)
def test_reader_names_the_malformed_line(line, match):
    with pytest.raises(ValueError, match=match):
        read_conllu(f"# sent_id = 1\n# text = A\n{line}\n", source="my.conllu")


def test_reader_rejects_an_unknown_tagset():
    with pytest.raises(ValueError, match="tagset must be 'upos' or 'xpos'; got 'pos'"):
        read_conllu(DOC, tagset="pos")


# (sentences, words, NOUN tags) of each portion, from the data README,
# which agree with the treebank's own stats.xml
COUNTS = {"dev": (2001, 25147, 4210), "test": (2077, 25094, 4123)}
SHA256 = {
    "dev": "531a54ff90d6ab12201c5a50c3e78e6ddac4de69abc4bce5d275d3cd29efe2b6",
    "test": "e266e515a0a7547657ed3d90d9ba46487d6bd251f27ad4269d4e8a427c8555cd",
}


@pytest.mark.parametrize("split", ["dev", "test"])
def test_bundled_portions_match_the_release(split):
    raw = read_bytes(f"en_ewt-ud-{split}.conllu.xz")
    assert hashlib.sha256(raw).hexdigest() == SHA256[split]
    data = load_ud_english_ewt(split)
    n_sent, n_words, n_noun = COUNTS[split]
    assert len(data.data) == len(data.target) == n_sent
    assert [len(s) for s in data.data] == [len(t) for t in data.target]
    assert sum(map(len, data.data)) == n_words
    counts = Counter(t for tags in data.target for t in tags)
    assert len(counts) == 17 and counts.most_common(1)[0] == ("NOUN", n_noun)
    assert data.target_names == sorted(counts)
    assert data.kind == "sequences" and "CC BY-SA 4.0" in data.DESCR
    assert "Silveira" in data.DESCR
    xpos = load_ud_english_ewt(split, tagset="xpos")
    assert len(xpos.target_names) == (49 if split == "dev" else 48)
    assert xpos.data == data.data


def test_licence_text_is_bundled():
    text = read_bytes("UD_English-EWT_LICENSE.txt.gz")
    assert hashlib.sha256(text).hexdigest() == (
        "b3d1b0f4c6ae151f7eb78738f46ebd5ee140f8a7f76501ba26af123140d35ae7"
    )


def test_loader_hands_out_fresh_lists_and_checks_its_arguments():
    first = load_ud_english_ewt("test")
    first.data[0][0] = "changed"
    first.target.clear()
    again = load_ud_english_ewt("test")
    assert again.data[0][0] == "What" and len(again.target) == 2077
    with pytest.raises(ValueError, match="split must be 'dev' or 'test'; got 'train'"):
        load_ud_english_ewt("train")
    with pytest.raises(ValueError, match="tagset must be 'upos' or 'xpos'"):
        load_ud_english_ewt("dev", tagset="UPOS")
