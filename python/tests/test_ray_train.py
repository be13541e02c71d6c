"""`python -m bones.ray train` on a real two-node Ray cluster on loopback (two
`ray start` nodes of one CPU each): it trains into a run folder like `bones
train`; a worker killed mid-run is replaced and no update is lost or counted
twice; a driver killed mid-run resumes from its last checkpoint; bad settings
fail with one clear line. The halves themselves (`bones.Learner`,
`bones.RolloutWorker`) are checked in test_learner.py."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytest.importorskip("ray")

# The smoke config with more games per update (about 75 hands an update), its
# evaluations and checkpoints spaced out.
CONFIG = """
[run]
seed = 7
total_hands = 600
env_threads = 1

[model]
hidden = 32
depth = 1

[ppo]
num_envs = 32
num_steps = 32
learning_rate = 0.0003
num_minibatches = 2
update_epochs = 2
ent_coef = 0.01
target_kl = 0.0

[opponents]
opponent_share = 0.5
snapshot_every = 1
pool_size = 2

[eval]
eval_every = 20
eval_hands = 4

[checkpoints]
checkpoint_every = 10
"""
DECISIONS_PER_UPDATE = 32 * 32


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_cli(*args: str) -> None:
    ray = Path(sys.executable).parent / "ray"
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    run = subprocess.run([str(ray), *args], env=env, capture_output=True, text=True)
    assert run.returncode == 0, f"ray {' '.join(args)}:\n{run.stdout}\n{run.stderr}"


@pytest.fixture(scope="module")
def cluster():
    """A head node and a second node on 127.0.0.1, one CPU each, with token
    authentication (Ray's default) on a token of this test's own: the nodes
    and the drivers started here get it from the environment."""
    saved = {k: os.environ.get(k) for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")}
    os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=uuid.uuid4().hex)
    os.environ.pop("RAY_AUTH_TOKEN_PATH", None)
    port = free_port()
    common = ["--num-cpus", "1", "--node-ip-address", "127.0.0.1", "--disable-usage-stats"]
    try:
        ray_cli("start", "--head", "--port", str(port), "--include-dashboard=false", *common)
        ray_cli("start", "--address", f"127.0.0.1:{port}", *common)
        yield f"127.0.0.1:{port}"
    finally:
        ray_cli("stop", "--force")
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "ray-smoke.toml"
    path.write_text(CONFIG)
    return path


def driver(address, config, out, *extra):
    """Starts `python -m bones.ray train` with 2 workers; its output is a pipe of lines."""
    cmd = [sys.executable, "-m", "bones.ray", "train", "--config", str(config), "--workers", "2"]
    cmd += ["--address", address, "--out", str(out), *extra]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(proc, timeout=150):
    out, _ = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, out
    return out


def wait_for(proc, predicate, timeout=90):
    """Reads the driver's lines until one satisfies `predicate`; returns them."""
    lines, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if predicate(line):
            return lines
    proc.kill()
    pytest.fail("the driver never said it: " + "".join(lines))


def latest_state(out):
    ck = Path(out) / "checkpoints"
    name = (ck / "latest").read_text().strip()
    return json.loads((ck / name / "state.json").read_text())


def test_trains_on_two_nodes_into_the_run_folder_of_bones_train(cluster, config, tmp_path):
    out = tmp_path / "run"
    log = finish(driver(cluster, config, out, "--hands", "3000"))
    assert "trained" in log
    state = latest_state(out)
    assert state["hands"] >= 3000
    assert state["decisions"] == state["update"] * DECISIONS_PER_UPDATE
    assert (out / "config.toml").read_text().count("workers = 2") == 1
    assert any(p.name.startswith("events.out.tfevents") for p in out.rglob("*"))
    # The run folder is a model for every agent spec.
    import bones

    r = bones.evaluate(f"model:{out}", "random", hands=8, seed=1)
    assert r["hands"] == 8


def test_a_killed_worker_is_replaced_and_no_update_is_lost_or_counted_twice(cluster, config, tmp_path):
    out = tmp_path / "run"
    proc = driver(cluster, config, out, "--hands", "900")
    lines = wait_for(proc, lambda line: line.startswith("update 3 "))
    victim = next(int(line.split()[-1]) for line in lines if line.startswith("worker 1 is pid"))
    os.kill(victim, signal.SIGKILL)
    log = finish(proc)
    assert f"was replaced (pid {victim}, now pid" in log
    state = latest_state(out)
    assert state["hands"] >= 900
    assert state["decisions"] == state["update"] * DECISIONS_PER_UPDATE
    updates = [int(line.split()[1]) for line in log.splitlines() if line.startswith("update ")]
    assert updates == list(range(4, state["update"] + 1))


def test_a_killed_driver_resumes_from_its_last_checkpoint(cluster, config, tmp_path):
    out = tmp_path / "run"
    proc = driver(cluster, config, out, "--hands", "3000")
    wait_for(proc, lambda line: line.startswith("update 12 "))
    proc.kill()
    proc.wait()
    # Checkpoints every 10 updates: the driver died past the first.
    saved = latest_state(out)["update"]
    assert saved >= 10 and saved % 10 == 0
    log = finish(driver(cluster, config, out, "--hands", "3000", "--resume"))
    assert f"learner at update {saved} " in log
    state = latest_state(out)
    assert state["hands"] >= 3000
    assert state["decisions"] == state["update"] * DECISIONS_PER_UPDATE
    updates = [int(line.split()[1]) for line in log.splitlines() if line.startswith("update ")]
    assert updates == list(range(saved + 1, state["update"] + 1))


def run_cli(*args, env=None):
    cmd = [sys.executable, "-m", "bones.ray", "train", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)


def test_bad_settings_fail_with_one_clear_line(tmp_path, config):
    def error_line(*args, env=None):
        r = run_cli(*args, env=env)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
        return r.stderr.strip()

    out = tmp_path / "a"
    assert error_line("--config", str(config), "--workers", "0", "--out", str(out)) == (
        "error: workers must be at least 1, got 0"
    )
    port = free_port()
    line = error_line("--config", str(config), "--workers", "1", "--out", str(out), "--address", f"127.0.0.1:{port}")
    assert line.startswith(f"error: cannot reach the Ray head at 127.0.0.1:{port}")
    line = error_line("--config", "no-such-preset", "--workers", "1", "--out", str(out))
    assert line.startswith("error: config: unknown config preset `no-such-preset`")
    # Without Ray: a `ray` that cannot be imported.
    fake = tmp_path / "noray"
    fake.mkdir()
    (fake / "ray.py").write_text("raise ImportError('No module named ray')\n")
    env = dict(os.environ, PYTHONPATH=str(fake))
    line = error_line("--config", str(config), "--workers", "1", "--out", str(out), env=env)
    assert line.startswith("error: bones.ray needs Ray, which is not installed")
    assert not out.exists()


def test_a_driver_without_the_clusters_token_is_refused_in_one_line(cluster, config, tmp_path):
    env = dict(os.environ, RAY_AUTH_TOKEN="not-the-clusters-token")
    r = run_cli("--config", str(config), "--workers", "1", "--out", str(tmp_path / "a"), "--address", cluster, env=env)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stderr.startswith(f"error: the Ray cluster at {cluster} refused this driver"), r.stderr
    assert "token" in r.stderr and "is not the cluster's" in r.stderr, r.stderr
    assert not (tmp_path / "a").exists()


def test_the_command_line_takes_the_flags_of_bones_train_from_its_one_table():
    from bones import _bones

    r = subprocess.run([sys.executable, "-m", "bones.ray", "train", "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    flags = _bones.train_flags()
    assert [f["name"] for f in flags][:3] == ["config", "out", "resume"]
    for flag in flags:
        assert f"--{flag['name']}" in r.stdout, flag["name"]
    line = run_cli("--workers", "1", "--players", "5").stderr
    assert "--players: 5 is not in 2..=4" in line, line
