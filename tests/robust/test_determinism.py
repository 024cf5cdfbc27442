"""Determinism across processes: the same game, seed and seats give identical histories,
logs, views and final JSON whatever PYTHONHASHSEED is (no set or dict order leaks)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from _fuzz import BUNDLED, ROOT

SCRIPT = r'''
import hashlib, json, random, sys
import rulesdsl
out = {}
for path in sys.argv[1:]:
    game = rulesdsl.load(path)
    for players in sorted({game.min_players, game.max_players}):
        for seed in (1, 2):
            st = game.new_game(players=players, seed=seed)
            pick = random.Random(seed * 1000 + players)  # seeds an int: hash-independent
            for _ in range(200):
                if st.is_over:
                    break
                actions = st.legal_actions()
                st.apply(actions[pick.randrange(len(actions))])
            record = {"history": st.history, "log": st.log, "json": st.to_json(),
                      "views": [st.view(s) for s in range(players)],
                      "scores": st.scores, "winners": st.winners}
            text = json.dumps(record, sort_keys=True)
            out[f"{path}:{players}:{seed}"] = hashlib.sha256(text.encode()).hexdigest()
print(json.dumps(out, sort_keys=True))
'''


def _run(hashseed: str, files: list, where) -> dict:
    env = dict(os.environ, PYTHONHASHSEED=hashseed,
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-c", SCRIPT, *files], env=env,
                       capture_output=True, text=True, cwd=where, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def test_same_results_under_different_hash_seeds(tmp_path):
    # a snapshot of the files: the runs must read the same rules even while they are edited
    files = []
    for f in BUNDLED:
        shutil.copy(f, tmp_path / f.name)
        files.append(f.name)
    runs = [_run(h, files, tmp_path) for h in ("0", "1", "4242")]
    assert len(runs[0]) >= 2 * len(BUNDLED)
    for other in runs[1:]:
        differ = sorted(k for k in runs[0] if runs[0][k] != other.get(k))
        assert not differ, f"results depend on PYTHONHASHSEED: {differ}"
