"""The clustering part of the demo: ``showcase()`` returns a printable report.

1. Lloyd's iterations on 2-D blobs, step by step from deliberately poor seeds: J after each
   assignment never increases and the centres walk to the blobs (figure: one panel per
   iteration, the same two steps that :class:`KMeans` runs).
2. The elbow: k-means inertia on standardised iris against k (figure).
3. Elkan's algorithm and mini-batch k-means against Lloyd's on the same data.
"""

from __future__ import annotations

import numpy as np

from ._kmeans import KMeans, _m_step
from ._kmeans_kernels import lloyd_pass
from ._minibatch import MiniBatchKMeans

__all__ = ["showcase", "figures"]

_STEPS = 6  # iterations drawn


def _blobs():
    """300 points in 4 blobs, and 4 poor seeds: the first four points, all in one corner."""
    from ..datasets import make_blobs

    X, _ = make_blobs(n_samples=300, centers=4, cluster_std=0.9, random_state=3)
    seeds = X[np.argsort(X[:, 0])[:4]]  # the 4 left-most points
    return X, seeds


def _lloyd_steps(X, centres, n_steps):
    """[(μ⁽ᵗ⁾, c⁽ᵗ⁾ = nearest centre of each row, J(μ⁽ᵗ⁾)), ...]: one E-step and M-step each."""
    w = np.ones(X.shape[0])
    k = centres.shape[0]
    labels, S, W = np.empty(X.shape[0], np.int32), np.zeros_like(centres), np.zeros(k)
    steps = []
    for _ in range(n_steps):
        J = lloyd_pass(X, w, centres, labels, S, W, True)  # assignment, and the cluster sums
        steps.append((centres, labels.copy(), J))
        centres = _m_step(X, w, centres, labels, S, W)  # update: the weighted means
    return steps


def _iris():
    from ..datasets import load_iris

    X = load_iris().data
    return (X - X.mean(axis=0)) / X.std(axis=0)


def _lloyd_section(lines):
    X, seeds = _blobs()
    steps = _lloyd_steps(X, seeds, _STEPS)
    model = KMeans(4, init=seeds).fit(X)
    lines.append("Lloyd's k-means on 300 points in 4 blobs, from the 4 left-most points as seeds")
    for t, (_, labels, J) in enumerate(steps):
        sizes = np.bincount(labels, minlength=4)
        lines.append(f"  iteration {t}: J = {J:10.3f}   cluster sizes {sizes.tolist()}")
    lines.append(
        f"  KMeans from the same seeds: {model.n_iter_} iterations ({model.stop_reason_}), "
        f"J = {model.inertia_:.3f}; its J never increased: "
        f"{bool(np.all(np.diff(model.history_['objective']) <= 1e-9 * model.inertia_))}"
    )


def _elbow(ks=range(1, 9)):
    X = _iris()
    return list(ks), [KMeans(k, random_state=0).fit(X).inertia_ for k in ks]


def _elbow_section(lines):
    ks, J = _elbow()
    lines.append("Elbow on standardised iris (k-means++, random_state=0): inertia against k")
    lines.append("  " + "  ".join(f"k={k}: {j:.1f}" for k, j in zip(ks, J, strict=True)))


def _variants_section(lines):
    X = _iris()
    lloyd = KMeans(3, random_state=0).fit(X)
    elkan = KMeans(3, random_state=0, algorithm="elkan").fit(X)
    mini = MiniBatchKMeans(3, random_state=0, batch_size=32).fit(X)
    same = bool(np.array_equal(lloyd.labels_, elkan.labels_))
    lines.append("Three algorithms, k = 3 on standardised iris")
    lines.append(f"  Lloyd:      J = {lloyd.inertia_:.4f} in {lloyd.n_iter_} iterations")
    lines.append(f"  Elkan:      J = {elkan.inertia_:.4f}, same labels as Lloyd: {same}")
    lines.append(f"  mini-batch: J = {mini.inertia_:.4f} after {mini.n_steps_} batches of 32")


def showcase() -> str:
    """The clustering demo as text (no printing: the caller decides where it goes)."""
    lines: list[str] = []
    for section in (_lloyd_section, _elbow_section, _variants_section):
        section(lines)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# -- figures (written by `scratchlearn demo` when matplotlib is installed) ---------------------
def _steps_figure(fig) -> None:
    """One panel per Lloyd iteration: points coloured by their nearest centre, the centres'
    trails so far."""
    from ..plotting import plot_clusters

    fig.set_layout_engine("constrained")
    X, seeds = _blobs()
    steps = _lloyd_steps(X, seeds, _STEPS)
    fig.set_size_inches(13, 8)
    trail = np.stack([c for c, _, _ in steps])  # (steps, k, 2)
    for t, (centres, labels, J) in enumerate(steps):
        ax = fig.add_subplot(2, 3, t + 1)
        plot_clusters(X, labels, centres, ax=ax, s=10, title=f"iteration {t}: J = {J:.1f}")
        for j in range(centres.shape[0]):
            ax.plot(trail[: t + 1, j, 0], trail[: t + 1, j, 1], "k--", linewidth=0.8)
    fig.suptitle(
        "Lloyd's k-means from four poor seeds, one iteration per panel:\n"
        "assign each point to its nearest centre (colours), then move each centre (×) to the "
        "mean of its points (dashed: the centres' paths)"
    )


def _elbow_figure(fig) -> None:
    from ..plotting import plot_elbow

    fig.set_layout_engine("constrained")
    ax = fig.add_subplot()
    plot_elbow(_iris(), range(1, 9), ax=ax)
    ax.set_title("Elbow curve: k-means inertia on standardised iris")


def figures():
    """The figures of this story: ``[(file name, draw(fig)), ...]``."""
    return [("kmeans_lloyd_steps.png", _steps_figure), ("kmeans_elbow.png", _elbow_figure)]
