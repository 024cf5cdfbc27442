"""The editor set-up shipped in editors/: Neovim runs headless with the shipped config,
attaches `rulesdsl lsp` to a .rules file and shows its diagnostic; the VS Code manifest
and the Emacs snippet declare the same language, files and server."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EDITORS = ROOT / "editors"

BROKEN = '''game "Broken"
players 2
zone pile public
phase main {
  move top(pile) to piel
}
flow main
'''

# Waits for the buffer's diagnostics, writes them to $RULES_OUT, quits.
REPORT = '''
local ok = vim.wait(90000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local f = io.open(vim.env.RULES_OUT, "w")
f:write("filetype " .. vim.bo.filetype .. "\\n")
for _, d in ipairs(vim.diagnostic.get(0)) do
  f:write(string.format("%s %d %d %s\\n", tostring(d.code), d.lnum, d.col,
                        (d.message:gsub("\\n", " "))))
end
f:close()
vim.cmd("qa!")
'''


def _nvim() -> str:
    found = shutil.which("nvim")
    if not found:
        if os.environ.get("CI"):
            pytest.fail("nvim is missing; .ci/run installs it (apt-get install neovim)")
        pytest.skip("no Neovim here (apt-get install neovim)")
    return found


def test_neovim_attaches_the_server_and_shows_a_diagnostic(tmp_path):
    pytest.importorskip("pygls")
    (tmp_path / "broken.rules").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "report.lua").write_text(REPORT, encoding="utf-8")
    server = f"['{sys.executable}', '-m', 'rulesdsl', 'lsp']"
    env = {**os.environ, "RULES_OUT": str(tmp_path / "out.txt"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                       os.environ.get("PYTHONPATH")])),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run([_nvim(), "--headless", "--clean",
                           "--cmd", f"let g:rulesdsl_lsp_cmd = {server}",
                           "-c", f"luafile {EDITORS / 'nvim' / 'rules.lua'}",
                           "-c", "edit broken.rules", "-c", "luafile report.lua"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)
    out = (tmp_path / "out.txt").read_text(encoding="utf-8").splitlines()
    assert out[0] == "filetype rules", (out, done.stderr[-2000:])
    assert "E200 4 20 unknown name 'piel' hint: did you mean 'pile'?" in out[1:], out


def test_vscode_extension_declares_the_language_and_starts_the_server():
    manifest = json.loads((EDITORS / "vscode" / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    assert language["id"] == "rules" and language["extensions"] == [".rules"]
    assert manifest["activationEvents"] == ["onLanguage:rules"]
    assert "vscode-languageclient" in manifest["dependencies"]
    command = manifest["contributes"]["configuration"]["properties"]["rulesdsl.command"]
    assert command["default"] == ["rulesdsl", "lsp"]
    client = (EDITORS / "vscode" / manifest["main"]).read_text(encoding="utf-8")
    assert 'require("vscode-languageclient/node")' in client
    assert 'language: "rules"' in client and 'get("command")' in client
    config = json.loads((EDITORS / "vscode" / language["configuration"]).read_text(
        encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"


def test_emacs_snippet_maps_rules_files_to_eglot_and_the_server():
    text = (EDITORS / "emacs" / "rules-mode.el").read_text(encoding="utf-8")
    assert "(add-to-list 'auto-mode-alist '(\"\\\\.rules\\\\'\" . rules-mode))" in text
    assert "'(rules-mode . (\"rulesdsl\" \"lsp\"))" in text
    code = re.sub(r'"(\\.|[^"\\])*"|;[^\n]*|\?.', "", text)   # strings, comments, ?c
    assert code.count("(") == code.count(")")


def test_the_editor_set_up_is_documented():
    tools = (ROOT / "docs" / "tools.md").read_text(encoding="utf-8")
    for path in ("editors/nvim/rules.lua", "editors/vscode", "editors/emacs/rules-mode.el"):
        assert path in tools


def test_without_neovim_the_test_fails_under_ci_and_skips_elsewhere(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="apt-get install neovim"):
        _nvim()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        _nvim()
    assert "neovim" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
