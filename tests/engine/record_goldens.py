"""Record the golden transcripts (see _golden.py).

    python tests/engine/record_goldens.py              # every bundled game and example
    python tests/engine/record_goldens.py hearts       # only files whose name matches

Re-record a file only when its rules changed or a deliberate engine fix changes its
output, and say which and why in the commit.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from _golden import GOLDENS, RULES_FILES, record, write  # noqa: E402


def main(argv: list) -> int:
    GOLDENS.mkdir(exist_ok=True)
    for path in RULES_FILES:
        if argv and not any(a in path.stem for a in argv):
            continue
        data = record(path)
        write(path, data)
        print(f"{path.parent.name}/{path.name}: {len(data['games'])} games", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
