// The Scenarios panel: every scenario played against its expectations, each one's log explained.
import { h, fill } from '../text.js';
import { renderLog } from '../log.js';

export function scenariosPanel(root, app) {
  const run = h('button', { type: 'button', class: 'primary' }, 'Run all scenarios');
  const summary = h('p', { class: 'summary', role: 'status' });
  const list = h('div', { class: 'scenario-list' });
  fill(root,
    h('p', { class: 'hint' }, 'Each scenario sets up a table, fires events and checks what the rules did. Open one to read what happened and why.'),
    h('div', { class: 'row' }, run, summary), list);

  async function runAll() {
    if (!app.outline) return;
    summary.textContent = 'Playing…';
    fill(list);
    let report;
    try {
      report = await app.engine.call('test', { seed: 0 });
    } catch (e) {
      summary.textContent = e.stopped ? 'Stopped.' : `Could not run them: ${e.message}`;
      return;
    }
    const titles = Object.fromEntries((app.outline.scenarios ?? []).map((s) => [s.name, s.title]));
    summary.textContent = `${report.passed} passed, ${report.failed} failed`;
    summary.className = `summary ${report.failed ? 'bad' : 'good'}`;
    fill(list, ...report.scenarios.map((doc) => {
      const expects = doc.log.filter((l) => l.type === 'expect');
      const failed = expects.filter((l) => !l.passed).length;
      const body = h('div', { class: 'scenario-body' });
      const details = h('details', { class: `scenario ${doc.ok ? 'pass' : 'fail'}` },
        h('summary', {},
          h('span', { class: 'mark', 'aria-label': doc.ok ? 'passed' : 'failed' }, doc.ok ? '✓' : '✗'), ' ',
          h('b', {}, doc.scenario), titles[doc.scenario] ? ` — ${titles[doc.scenario]}` : '',
          h('span', { class: 'count' }, ` ${expects.length - failed}/${expects.length} expectations met`)),
        body);
      details.addEventListener('toggle', () => {
        if (details.open && !body.firstChild) body.append(renderLog(doc.log, app));
      }, { once: false });
      return details;
    }));
  }
  // They run when the panel opens and again whenever the rules load while it is open.
  let ranFor = -1;
  const refresh = () => {
    if (root.hidden || !app.outline || ranFor === app.version) return;
    ranFor = app.version;
    runAll();
  };
  run.addEventListener('click', runAll);
  app.onLoad(refresh);
  return { shown: refresh };
}
