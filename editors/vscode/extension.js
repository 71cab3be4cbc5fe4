// Starts `variantlab lsp` for variant files; the server does the rest.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("variantlab").get("path") || "variantlab";
  client = new LanguageClient(
    "variantlab",
    "variantlab",
    { command, args: ["lsp"] },
    { documentSelector: [{ language: "variant" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
