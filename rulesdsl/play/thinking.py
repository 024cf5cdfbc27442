"""A computer seat shows that it is thinking: a spinner line on a terminal, erased when
the move is made; nothing at all elsewhere (a transcript stays as it was)."""

from __future__ import annotations

import threading
from contextlib import contextmanager

FRAMES = "|/-\\"


@contextmanager
def thinking(stream, text: str, tty: bool, every: float = 0.12):
    """While the block runs, show `text` with a spinner on `stream` when it is a terminal."""
    if not tty:
        yield
        return
    stop = threading.Event()

    def spin():
        i = 0
        while True:
            try:
                stream.write(f"\r{FRAMES[i % len(FRAMES)]} {text}")
                stream.flush()
            except (OSError, ValueError):
                return
            i += 1
            if stop.wait(every):
                return

    worker = threading.Thread(target=spin, daemon=True)
    worker.start()
    try:
        yield
    finally:
        stop.set()
        worker.join()
        try:
            stream.write("\r\033[K")
            stream.flush()
        except (OSError, ValueError):
            pass


def describe_agent(kind: str, agent) -> str:
    """'ismcts, medium' for an ismcts seat at its default level; the spec otherwise."""
    level = getattr(agent, "level", None)
    name, _, rest = kind.partition(":")
    return f"{name}, {level}" if level and rest in ("", level) else kind
