"""`bones.Learner` and `bones.RolloutWorker`, the actor-learner's halves: driven
from Python they train into a run folder of `bones train`; they trade bytes;
bad configs and bytes of another update or run raise `bones.TrainError`."""

import json
import threading
import time

import pytest

import bones


def smoke(tmp_path, **overrides):
    learner = bones.Learner("smoke", tmp_path / "run", workers=2, overrides=overrides or None)
    workers = [bones.RolloutWorker(learner.config, w) for w in range(2)]
    return learner, workers


def play(worker, learner, update):
    if worker.pool_version != learner.pool_version:
        worker.set_pool(learner.pool())
    worker.set_weights(learner.weights(update))
    return worker.rollout()


def test_the_halves_train_into_the_run_folder_of_bones_train(tmp_path):
    learner, workers = smoke(tmp_path, total_hands=40)
    assert (learner.workers, learner.policy_lag, learner.total_hands) == (2, 1, 40)
    while not learner.finished:
        k = learner.update_count
        shards = [play(w, learner, k) for w in workers]
        assert all(isinstance(s, bytes) for s in shards)
        learner.update(shards)
        assert learner.update_count == k + 1
    assert learner.decisions == learner.update_count * 8 * 16
    summary = learner.finish()
    assert summary["hands"] >= 40 and summary["update"] == learner_updates(tmp_path)
    assert "win_rate_vs_heuristic" in summary["last_eval"]
    with pytest.raises(bones.TrainError, match="finished"):
        learner.weights()
    r = bones.evaluate(f"model:{tmp_path / 'run'}", "random", hands=4, seed=1)
    assert r["hands"] == 4


def learner_updates(tmp_path):
    ck = tmp_path / "run" / "checkpoints"
    return json.loads((ck / (ck / "latest").read_text().strip() / "state.json").read_text())["update"]


def test_bytes_of_another_update_worker_or_run_are_refused(tmp_path):
    learner, (w0, w1) = smoke(tmp_path)
    a, b = play(w0, learner, 0), play(w1, learner, 0)
    with pytest.raises(bones.TrainError, match="two shards of worker 0"):
        learner.update([a, a])
    with pytest.raises(bones.TrainError, match="expected rollout shard, got weights"):
        learner.update([a, learner.weights()])
    learner.update([b, a])
    with pytest.raises(bones.TrainError, match="it is of update 0; the learner is at update 1"):
        learner.update([a, b])
    other = bones.Learner("smoke", tmp_path / "other", workers=2, overrides={"seed": 99})
    with pytest.raises(bones.TrainError, match="seed 99"):
        w0.set_weights(other.weights())
    with pytest.raises(bones.TrainError, match="no weights to play"):
        w0.rollout()


def test_bad_configs_are_train_errors_naming_the_field(tmp_path):
    with pytest.raises(bones.TrainError, match="`workers` is 0"):
        bones.Learner("smoke", tmp_path / "a")
    with pytest.raises(bones.TrainError, match="`hidden_size` is not a config field"):
        bones.Learner("smoke", tmp_path / "a", workers=1, overrides={"hidden_size": 3})
    with pytest.raises(bones.TrainError, match="unknown config preset|no-such"):
        bones.Learner("no-such", tmp_path / "a", workers=1)
    with pytest.raises(bones.TrainError, match="worker 2 of a run with 2 workers"):
        bones.RolloutWorker("smoke", 2, workers=2)
    assert not (tmp_path / "a").exists()
    assert issubclass(bones.TrainError, bones.BonesError)


def test_a_rollout_releases_the_gil(tmp_path):
    learner, (w0, _) = smoke(tmp_path, num_envs=32, num_steps=64)
    w0.set_weights(learner.weights())
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    try:
        start = time.monotonic()
        w0.rollout()
        end = time.monotonic()
    finally:
        stop.set()
        t.join()
    # The other thread ran while the rollout did: Python code ran in its window.
    assert sum(start < x < end for x in ticks) >= 2


def test_a_damaged_shard_is_refused_as_shard_refused_and_the_learner_goes_on(tmp_path):
    learner, (w0, w1) = smoke(tmp_path)
    a, b = play(w0, learner, 0), play(w1, learner, 0)
    # Cut short: it no longer decodes (an inconsistent one is refused the same way).
    with pytest.raises(bones.ShardRefused) as refused:
        learner.update([a, b[: len(b) // 2]])
    assert refused.value.index == 1
    assert isinstance(refused.value, bones.TrainError)
    assert "bad rollout shard 1 of the 2 given" in str(refused.value)
    # Nothing was counted: the same update takes the good shards.
    assert learner.update_count == 0 and learner.decisions == 0
    learner.update([a, b])
    assert learner.update_count == 1
