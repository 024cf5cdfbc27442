"""`--backend ray`: the same games on a local Ray with 2 CPUs give the same results as
local processes; a cluster that cannot be joined is told apart (nothing answers, or it
refused this process's authentication token) on a real token-authenticated head."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from rulesdsl import cli
from rulesdsl.analysis.ray_backend import _answers
from rulesdsl.analysis.simulate import simulate

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_plays_the_same_games_as_local(local_ray):
    on_ray = simulate("triumvirat", players=2, games=16, seed=40, backend="ray", workers=2)
    local = simulate("triumvirat", players=2, games=16, seed=40, workers=1)
    assert on_ray.wins == local.wins and on_ray.draws == local.draws
    assert on_ray.records == local.records
    assert on_ray.backend == "ray" and ray.is_initialized()   # the caller's Ray is left up


def test_cli_backend_ray_json(local_ray, capsys):
    code = cli.main(["simulate", "triumvirat", "--games", "6", "--seed", "2", "--json",
                     "--backend", "ray"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    code = cli.main(["simulate", "triumvirat", "--games", "6", "--seed", "2", "--json",
                     "--workers", "1"])
    local = json.loads(capsys.readouterr().out)
    assert data["backend"] == "ray" and data["wins"] == local["wins"]
    assert data["total_actions"] == local["total_actions"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _simulate_on(address: str, home: Path, **env_extra) -> subprocess.CompletedProcess:
    """`rulesdsl simulate --backend ray --address ADDRESS` as a process of its own, with
    no Ray token but what `env_extra` gives (HOME is empty: no ~/.ray/auth_token)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=str(home), **env_extra)
    return subprocess.run([sys.executable, "-m", "rulesdsl", "simulate", "triumvirat",
                           "--games", "2", "--backend", "ray", "--address", address],
                          capture_output=True, text=True, env=env, timeout=600)


@pytest.fixture(scope="module")
def token_cluster():
    """A real Ray head that authenticates with a token (RAY_AUTH_MODE=token), as
    docs/tools.md starts one; stopped with its whole process group."""
    port, token = _free_port(), secrets.token_hex(16)
    temp = tempfile.mkdtemp(prefix="rh", dir="/tmp")   # Ray's socket paths must be short
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
    head = subprocess.Popen([str(Path(sys.executable).with_name("ray")), "start", "--head",
                             f"--port={port}", "--num-cpus=1", "--include-dashboard=false",
                             "--block", f"--temp-dir={temp}"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while not _answers("127.0.0.1", port):
            assert head.poll() is None and time.monotonic() < deadline, "the head did not start"
            time.sleep(0.5)
        yield f"127.0.0.1:{port}", token
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
        shutil.rmtree(temp, ignore_errors=True)


def test_a_cluster_that_refuses_the_token_is_named_as_such(token_cluster, tmp_path):
    """Ray's own error says only "failed to connect"; the message names the token."""
    address, token = token_cluster
    done = _simulate_on(address, tmp_path)
    assert done.returncode == 1, done.stdout
    assert f"C013]: the Ray cluster at {address} answers but refused this process's " \
           "authentication token" in done.stderr, done.stderr[-2000:]
    assert "RAY_AUTH_MODE=token" in done.stderr and "Traceback" not in done.stderr
    done = _simulate_on(address, tmp_path, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "2 games" in done.stdout or "games: 2" in done.stdout, done.stdout


def test_an_address_where_nothing_answers_is_told_at_once(tmp_path):
    """ray.init would wait minutes on a head that is not there."""
    address = f"127.0.0.1:{_free_port()}"
    started = time.monotonic()
    done = _simulate_on(address, tmp_path)
    assert done.returncode == 1
    assert f"cannot reach the Ray cluster at {address}: nothing answers there" in done.stderr
    assert time.monotonic() - started < 120
