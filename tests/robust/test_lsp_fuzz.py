"""Language-server messages from outside, to the real server over stdio: documents with
hostile text, requests at any position and on any uri, wrong methods and params, broken
headers (negative, huge, non-numeric Content-Length) and bodies cut short. After every ten
messages a good hover is answered within 20 s; at the end, shutdown is answered and exit
ends the server. No exception inside rulesdsl's handlers."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, strategies as st

pytest.importorskip("pygls")

from _fuzz import fuzz_settings  # noqa: E402
import _kinds  # noqa: E402


@pytest.fixture(scope="module")
def campaign():
    ws = _kinds.Workspace()
    lsp = _kinds.LspCampaign(ws)
    yield lsp
    assert lsp.shutdown_cleanly(), "initialize then shutdown not answered"
    ws.close()


@fuzz_settings(6, shrink=False)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_message_batches_leave_the_server_answering(campaign, seed):
    detail: list = []
    outcome = campaign.batch(random.Random(seed), detail)
    assert outcome == "ok", f"{outcome} (seed {seed}):\n" + "\n".join(detail)


@pytest.mark.parametrize("method", ["textDocument/hover", "textDocument/definition",
                                    "textDocument/formatting", "textDocument/didSave"])
@pytest.mark.parametrize("target", ["stdin", "fifo"])
def test_a_document_never_opened_is_not_read_from_disk(tmp_path, method, target):
    """pygls reads a document the client never opened from disk: /dev/stdin (the server's
    own messages) or a FIFO there blocked the server for good."""
    path = "/dev/stdin"
    if target == "fifo":
        path = str(tmp_path / "pipe.rules")
        os.mkfifo(path)
    ws = _kinds.Workspace()
    server = _kinds.Server(ws.dir)
    try:
        assert _kinds.initialise(server)
        params = {"textDocument": {"uri": "file://" + path},
                  "position": {"line": 0, "character": 0},
                  "options": {"tabSize": 2, "insertSpaces": True}}
        if method == "textDocument/didSave":
            server.send({"jsonrpc": "2.0", "method": method, "params": params})
        else:
            answer = server.answer(server.request(method, params), 20)
            assert answer is not None and answer.get("result") is None, answer
        assert _kinds.answers_a_hover(server, 20)
    finally:
        server.close()
        ws.close()
