"""`--backend ray`: the same games on a local Ray with 2 CPUs give the same results as
local processes."""

from __future__ import annotations

import json

import pytest

from rulesdsl import cli
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
