"""The fuzzing campaign: every kind of outside input, counted by outcome.

    python tests/robust/campaign.py --kind rules --count 30000 [--seed 1] [--json out.json]
    python tests/robust/campaign.py --kind all --count 1000     (each kind 1000)

Kinds: rules (mutated and hostile rules files through check, a fifth played), saves
(damaged saves resumed with `play --resume`, half of them told to save over another game's
save in progress, and damaged saves through `restore`), replays (`rulesdsl replay`),
scenarios, keyboard (lines typed at a person's prompt, in this process; counted per line),
lsp (messages to the language server over stdio; counted per message; after every ten a
good hover must be answered within 20 s), caches (planted pickles and damaged files in the
cache folder, then `check` and a game in a new process). Every input may carry payloads
that create a marker file: a marker found is a code execution.

Counts per outcome: inputs, tracebacks (any exception that is not a RulesError, an internal
error from the command line, an exception inside the language server's handlers), hangs (an
input past 30 s, a server that does not answer), code executions, lost saves. A run can be
split: each piece prints its counts (and appends them to --json), with its own seed.
Run it as `nice -n 10`, one piece at a time, with PYTHONPATH at the checkout and
RULESDSL_CACHE at a folder of its own.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _kinds  # noqa: E402

# kind -> (one input of it: (rng, workspace, details) -> outcome, inputs it counts as)
PER_INPUT = {
    "rules": (_kinds.rules_input, 1),
    "saves": (lambda rng, ws, d: (_kinds.save_input if rng.random() < 0.3
                                  else _kinds.restore_input)(rng, ws, d), 1),
    "replays": (_kinds.replay_input, 1),
    "scenarios": (_kinds.scenario_input, 1),
    "keyboard": (lambda rng, ws, d: _kinds.keyboard_input(rng, ws, d, lines=50), 50),
    "caches": (_kinds.cache_input, 1),
}
LSP_BATCH = 10
KINDS = list(PER_INPUT) + ["lsp"]


def run_kind(kind: str, count: int, seed: int, progress: bool = True) -> dict:
    counts = {"kind": kind, "seed": seed, "inputs": 0,
              **{o: 0 for o in _kinds.OUTCOMES if o != "ok"}}
    details: list = []
    ws = _kinds.Workspace()
    rng = random.Random(seed)
    started = time.monotonic()
    lsp = _kinds.LspCampaign(ws) if kind == "lsp" else None
    try:
        while counts["inputs"] < count:
            before = len(details)
            if lsp is not None:
                outcome, n = lsp.batch(rng, details, LSP_BATCH), LSP_BATCH
            else:
                one, n = PER_INPUT[kind]
                outcome = one(rng, ws, details)
            counts["inputs"] += n
            if outcome != "ok":
                counts[outcome] += 1
                for d in details[before:]:
                    print(f"--- {kind}: {outcome}\n{d}", file=sys.stderr)
            if progress and counts["inputs"] % max(count // 20, 1) < n:
                print(f"{kind}: {counts['inputs']} inputs, "
                      f"{time.monotonic() - started:.0f} s", file=sys.stderr)
        if lsp is not None and not lsp.shutdown_cleanly():
            counts["hang"] += 1
            print("--- lsp: initialize then shutdown not answered", file=sys.stderr)
    finally:
        if lsp is not None and lsp.server is not None:
            lsp.server.close()
        ws.close()
    counts["seconds"] = round(time.monotonic() - started)
    return counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=KINDS + ["all"], default="all")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="append each kind's counts to this file (JSON lines)")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")      # checker warnings are outcomes, not noise to show
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    failed = False
    for kind in KINDS if args.kind == "all" else [args.kind]:
        counts = run_kind(kind, args.count, args.seed)
        print(json.dumps(counts))
        if args.json:
            with open(args.json, "a") as f:
                f.write(json.dumps(counts) + "\n")
        failed |= any(counts[o] for o in _kinds.OUTCOMES if o != "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
