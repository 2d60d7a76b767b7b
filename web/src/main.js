// The playground page: the editor on the left, the tools on the right, mettle in a Web Worker.
import './style.css';
import examples from 'examples';
import { Engine } from './client.js';
import { Editor, diagnosticDom } from './editor.js';
import { encode, decode } from './share.js';
import { h, fill, lineMapper } from './text.js';
import { outlinePanel } from './panels/outline.js';
import { oddsPanel } from './panels/odds.js';
import { scenariosPanel } from './panels/scenarios.js';
import { playPanel } from './panels/play.js';
import { cardPanel } from './panels/card.js';

const $ = (id) => document.getElementById(id);
// The status line: what the page last did, or "Working…" while the engine is busy.
let said = '';
const status = (text) => { said = text; $('status').textContent = text; };

// What the page measured, for the browser test to read.
const timings = (window.mettleTimings = { start: performance.now(), firstDiagnostics: null, loads: [], shows: [] });

const app = {
  main: null, // the ruleset's file name
  loaded: null, // the last load's reply: { ok, diagnostics, outline }
  outline: null, // the last outline that loaded (kept while the text has errors)
  version: 0, // bumped by every load that succeeds
  listeners: [],
  onLoad(fn) { this.listeners.push(fn); },
  lineOf(span) { return lineMapper(editor.text(app.main))(span.start); },
  goto(line) { editor.goto(app.main, line); },
};

// Two workers: one checks the text as it is typed (diagnostics and outline), the other does what
// the tools ask (odds, scenarios, games, the card) on the last text that loaded. A long computation
// in the second never holds up the first, and Stop ends only the second.
const checker = new Engine();
const engine = new Engine({
  onBusy: (busy) => {
    $('stop').hidden = !busy;
    $('status').textContent = busy ? 'Working… (Stop ends it)' : said;
  },
  onRestart: () => { status('Stopped. The engine was started again.'); engineHas = -1; },
});
let engineHas = -1; // the version of the rules the tools' worker has loaded
app.engine = {
  call(op, args) {
    if (engineHas !== app.version) {
      engineHas = app.version;
      engine.call('load', { files: app.goodFiles, main: app.main, quiet: true }).catch(() => {});
    }
    return engine.call(op, args);
  },
};

const editor = new Editor($('editor'), { onChange: () => { scheduleLoad(); keepInAddress(); } });
app.editor = editor;
// For the browser test: the whole text of the ruleset (the editor draws only what is in view).
window.mettleText = () => editor.text(app.main);

// ------------------------------------------------------------------ loading, one at a time

let inFlight = false, dirty = false;
async function scheduleLoad() {
  if (inFlight) { dirty = true; return; }
  inFlight = true; dirty = false;
  const files = editor.files();
  const t0 = performance.now();
  try {
    const reply = await checker.call('load', { files, main: app.main });
    const ms = performance.now() - t0;
    timings.loads.push(ms);
    if (timings.firstDiagnostics == null) timings.firstDiagnostics = performance.now() - timings.start;
    const shown = performance.now();
    showLoad(reply, files);
    timings.shows.push(performance.now() - shown);
  } catch (e) {
    if (!e.stopped) status(`The engine failed: ${e.message}`);
  } finally {
    inFlight = false;
    if (dirty) scheduleLoad();
  }
}

function showLoad(reply, files) {
  app.loaded = reply;
  editor.setDiagnostics(reply.diagnostics, app.main);
  const list = $('problems');
  fill(list, ...reply.diagnostics.map((d) => h('li', { class: `problem ${d.severity}` },
    h('button', {
      type: 'button', class: 'where', onclick: () => editor.goto(d.file ?? app.main, d.line, d.column_utf16),
      title: 'Show it in the editor',
    }, `${d.file && d.file !== app.main ? `${d.file} ` : ''}line ${d.line}`),
    diagnosticDom(d))));
  const errors = reply.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = reply.diagnostics.length - errors;
  $('problems-title').textContent = reply.diagnostics.length
    ? `Problems: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`
    : 'Problems: none';
  document.body.classList.toggle('has-errors', !reply.ok);
  if (reply.ok) {
    app.outline = reply.outline;
    app.goodFiles = files;
    app.version++;
    status(`Loaded ${reply.outline.title ?? app.main}.`);
  } else {
    status('The rules have errors: the tools show the last version that loaded.');
  }
  for (const fn of app.listeners) fn(reply);
}

// ------------------------------------------------------------------ files and examples

function showFiles(files) {
  app.main = Object.keys(files).find((n) => n.endsWith('.mettle')) ?? Object.keys(files)[0];
  editor.setFiles(files, app.main);
  const tabs = $('files');
  fill(tabs, ...Object.keys(files).map((name) => h('button', {
    role: 'tab', type: 'button', 'aria-selected': String(name === app.main), 'data-file': name,
    onclick: (ev) => {
      editor.show(name);
      for (const b of tabs.children) b.setAttribute('aria-selected', String(b === ev.currentTarget));
    },
  }, name)));
  app.outline = null;
  for (const fn of app.listeners) fn(null);
  scheduleLoad();
}

// Edited rules are kept in the address as they are typed (a moment after the last key), so that a
// reload or a bookmark never loses them; an example as shipped keeps the address plain.
let pristine = null; // the example's files while they are unchanged
let keepTimer = 0;
function keepInAddress() {
  clearTimeout(keepTimer);
  keepTimer = setTimeout(async () => {
    const files = editor.files();
    if (pristine && JSON.stringify(files) === JSON.stringify(pristine)) return;
    pristine = null;
    picker.value = '';
    history.replaceState(null, '', `#${await encode(files)}`);
  }, 700);
}

const picker = $('example');
picker.append(h('option', { value: '' }, '(your own rules)'),
  ...examples.map((ex, i) => h('option', { value: String(i) }, `${ex.title} (${ex.name})`)));
picker.addEventListener('change', () => {
  const ex = examples[Number(picker.value)];
  if (ex) { history.replaceState(null, '', location.pathname); pristine = ex.files; showFiles(ex.files); }
});

$('share').addEventListener('click', async () => {
  clearTimeout(keepTimer);
  const fragment = await encode(editor.files());
  history.replaceState(null, '', `#${fragment}`);
  try {
    await navigator.clipboard.writeText(location.href);
    status('The link is in your clipboard and in the address bar. The rules travel inside it: nothing was uploaded.');
  } catch {
    status('The link is in the address bar: copy it from there. The rules travel inside it: nothing was uploaded.');
  }
});
$('stop').addEventListener('click', () => engine.stop());

// ------------------------------------------------------------------ the tools' tabs

const tabs = [...document.querySelectorAll('.tools [role=tab]')];
function select(tab) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute('aria-controls')).hidden = !on;
  }
  panels[tab.getAttribute('aria-controls')]?.shown?.();
}
for (const t of tabs) {
  t.addEventListener('click', () => select(t));
  t.addEventListener('keydown', (e) => {
    const i = tabs.indexOf(t);
    const next = e.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length]
      : e.key === 'ArrowLeft' ? tabs[(i + tabs.length - 1) % tabs.length] : null;
    if (next) { e.preventDefault(); next.focus(); select(next); }
  });
}

const panels = {
  outline: outlinePanel($('outline'), app),
  odds: oddsPanel($('odds'), app),
  scenarios: scenariosPanel($('scenarios'), app),
  play: playPanel($('play'), app),
  card: cardPanel($('card'), app),
};

// ------------------------------------------------------------------ start

async function open() {
  let files = null;
  try {
    files = await decode(location.hash);
  } catch (e) {
    status(`The link's rules could not be read (${e.message}): showing an example instead.`);
  }
  if (files) {
    picker.value = '';
    status('Opened the rules in the link.');
  } else {
    const first = examples.findIndex((ex) => ex.name === 'infinite_frontiers.mettle');
    picker.value = String(Math.max(0, first));
    files = examples[Number(picker.value)].files;
    pristine = files;
  }
  showFiles(files);
}
open();
// A link pasted into this tab's address bar opens its rules.
window.addEventListener('hashchange', open);
