"""Registry entries of the structured-output models (see :mod:`scratchlearn._registry`)."""

from scratchlearn._registry import Entry, Family

FAMILY = Family(
    name="structured",
    order=140,
    title="Structured outputs: sequence labelling",
    stories=("scratchlearn.structured._showcase",),
    entries=[
        Entry(
            name="StructuredPerceptron",
            summary="linear-chain tagger: Viterbi decoding, averaged perceptron (Collins 2002)",
            demo_params={"max_iter": 5, "random_state": 0},
            check_params={"max_iter": 3, "random_state": 0},
            # scikit-learn's checks feed numeric 2-D arrays; this model reads lists of token
            # lists (X_types "sequences"): tests/structured and the sequence cases of
            # tests/test_bad_input.py cover its contract instead.
            common_checks=False,
        ),
    ],
)
