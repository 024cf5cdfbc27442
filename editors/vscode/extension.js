// The client of `rulesdsl lsp` for VS Code: starts the server for `rules` documents.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulesdsl").get("command");
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    "rulesdsl", "rulesdsl", server,
    { documentSelector: [{ scheme: "file", language: "rules" },
                         { scheme: "untitled", language: "rules" }] });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
