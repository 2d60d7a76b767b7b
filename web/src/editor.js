// The editor: CodeMirror 6 with mettle's highlighting, the engine's diagnostics underlined (code,
// message and help in the tooltip), and one document per file (the ruleset and its scripts).
import { basicSetup } from 'codemirror';
import { EditorView, keymap } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { indentWithTab } from '@codemirror/commands';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { mettle, rhai } from './highlight.js';
import { byteMapper, h } from './text.js';

/** The help under a diagnostic: its code, message and help, in that order of reading. */
export function diagnosticDom(d) {
  return h('div', { class: 'diag' },
    h('div', { class: 'diag-head' }, h('code', { class: 'diag-code' }, d.code ?? ''), ' ', h('span', { class: 'diag-message' }, d.message)),
    d.help ? h('div', { class: 'diag-help' }, h('b', {}, 'help: '), d.help) : null,
  );
}

// The engine's diagnostic as CodeMirror's: from its primary span (bytes) to UTF-16 positions.
function toCm(d, text, toUtf16) {
  const primary = d.labels?.find((l) => l.primary) ?? d.labels?.[0];
  const span = primary?.span ?? d.span;
  let from = span ? toUtf16(span.start) : 0;
  let to = span ? toUtf16(span.end) : from;
  if (to <= from) to = Math.min(text.length, from + 1);
  if (from >= text.length) { from = Math.max(0, text.length - 1); to = text.length; }
  return {
    from, to,
    severity: d.severity === 'warning' ? 'warning' : d.severity === 'advice' ? 'info' : 'error',
    message: `${d.code ?? ''}: ${d.message}${d.help ? `\nhelp: ${d.help}` : ''}`,
    renderMessage: () => diagnosticDom(d),
  };
}

export class Editor {
  /** `onChange(name, text)` is told of every edit. */
  constructor(parent, { onChange }) {
    this.onChange = onChange;
    this.states = new Map();
    this.current = null;
    this.view = new EditorView({ parent });
  }

  extensions(name) {
    const language = name.endsWith('.rhai') ? rhai : mettle;
    return [
      basicSetup,
      keymap.of([indentWithTab]),
      language,
      EditorView.lineWrapping,
      lintGutter(),
      EditorView.contentAttributes.of({ 'aria-label': `Editor for ${name}`, 'aria-describedby': 'editor-keys' }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) this.onChange(name, u.state.doc.toString());
      }),
    ];
  }

  /** Replaces every file: `files` is `{ name: text }`; shows `show`. */
  setFiles(files, show) {
    this.states = new Map(Object.entries(files).map(([name, text]) =>
      [name, EditorState.create({ doc: text, extensions: this.extensions(name) })]));
    this.current = null;
    this.show(show);
  }

  /** Shows one file. */
  show(name) {
    if (this.current === name) return;
    if (this.current) this.states.set(this.current, this.view.state);
    this.current = name;
    this.view.setState(this.states.get(name));
  }

  text(name) {
    return (name === this.current ? this.view.state : this.states.get(name)).doc.toString();
  }

  files() {
    return Object.fromEntries([...this.states.keys()].map((n) => [n, this.text(n)]));
  }

  /** Underlines `diagnostics` (the engine's, for every file) in the files they name. */
  setDiagnostics(diagnostics, main) {
    if (this.current) this.states.set(this.current, this.view.state);
    for (const [name, state] of this.states) {
      const text = state.doc.toString();
      const toUtf16 = byteMapper(text);
      const mine = diagnostics.filter((d) => (d.file ?? main) === name);
      const tr = setDiagnostics(state, mine.map((d) => toCm(d, text, toUtf16)));
      if (name === this.current) this.view.dispatch(tr);
      else this.states.set(name, state.update(tr).state);
    }
  }

  /** Moves the cursor to a line of a file and shows it. */
  goto(name, line, column = 1) {
    this.show(name);
    const doc = this.view.state.doc;
    const l = doc.line(Math.max(1, Math.min(line, doc.lines)));
    const pos = Math.min(l.from + Math.max(0, column - 1), l.to);
    this.view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
    this.view.focus();
  }
}
