// The mettle extension: starts `mettle lsp` over standard input and output for every .mettle file.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

/** Starts the language server named by the `mettle.server.*` settings. */
function activate(context) {
  const settings = vscode.workspace.getConfiguration('mettle');
  const command = settings.get('server.path') || 'mettle';
  const args = [...(settings.get('server.extraArgs') || []), 'lsp'];
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    'mettle',
    'mettle language server',
    { run: server, debug: server },
    {
      documentSelector: [{ language: 'mettle' }],
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{mettle,rhai}') },
    },
  );
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `mettle: could not start \`${command} lsp\` (${err.message || err}). ` +
        'Put `mettle` on PATH or set "mettle.server.path".',
    );
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
  // A changed server setting takes effect on the next start.
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mettle.server')) {
        vscode.window.showInformationMessage('mettle: reload the window to restart the language server.');
      }
    }),
  );
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
