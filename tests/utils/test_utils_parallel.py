"""utils.parallel: n_jobs parsing, task order on threads, seeds fixed before the work."""

import numpy as np
import pytest

from scratchlearn.utils.parallel import n_workers, run_tasks, spawn_seeds


@pytest.mark.parametrize("bad", [0, -2, 1.5, True, "2"])
def test_n_workers_rejects_bad_values(bad):
    with pytest.raises(ValueError, match="n_jobs must be None, a positive int or -1"):
        n_workers(bad)


def test_n_workers_values():
    assert n_workers(None) == 1
    assert n_workers(3) == 3
    assert n_workers(-1) >= 1


def test_run_tasks_keeps_task_order_on_threads():
    tasks = [(i,) for i in range(40)]
    assert run_tasks(lambda i: i * i, tasks, n_jobs=4) == [i * i for i in range(40)]


def test_spawn_seeds_split_in_two_calls_equals_one_call():
    # warm_start relies on this: seeds for trees 0..6 are the same whether drawn at once or
    # as 3 then 4 from the same stream.
    once = spawn_seeds(np.random.default_rng(11), 7)
    rng = np.random.default_rng(11)
    twice = np.concatenate([spawn_seeds(rng, 3), spawn_seeds(rng, 4)])
    np.testing.assert_array_equal(once, twice)
    assert len(set(once.tolist())) == 7
