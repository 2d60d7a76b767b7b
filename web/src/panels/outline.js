// The Outline panel: what the ruleset declares, each a link to its line.
import { h, fill } from '../text.js';

const firstLine = (doc) => (doc ?? '').split('\n\n')[0].replace(/\n/g, ' ');

const SECTIONS = [
  ['Checks', 'checks', (c) => `roll ${c.roll}${c.made_by ? `, made by a ${c.made_by}` : ''}`],
  ['Events', 'events', (e) => (e.facts.length ? `(${e.facts.map((f) => f.name).join(', ')})` : '')],
  ['Kinds', 'kinds', (k) => `${k.attributes.length} attributes`],
  ['Tables', 'tables', () => ''],
  ['Choices', 'choices', (c) => c.question ?? ''],
  ['House rules', 'options', (o) => o.type],
  ['Scenarios', 'scenarios', (s) => s.title ?? ''],
];

export function outlinePanel(root, app) {
  let drawn = null; // the outline as last drawn, to leave the page alone when nothing changed
  function render() {
    const o = app.outline;
    const json = o && JSON.stringify(o);
    if (json && json === drawn) return;
    drawn = json;
    if (!o) { fill(root, h('p', { class: 'empty' }, 'Loading the rules…')); return; }
    fill(root,
      h('h2', {}, o.title ?? app.main),
      SECTIONS.map(([title, key, detail]) => {
        const items = (o[key] ?? []).filter((x) => !x.built_in);
        if (!items.length) return null;
        return h('section', { class: 'outline-section' },
          h('h3', {}, `${title} (${items.length})`),
          h('ul', { class: 'outline' }, items.map((x) => h('li', {},
            x.line ? h('button', { type: 'button', class: 'link', onclick: () => app.goto(x.line) }, x.name) : h('b', {}, x.name),
            ' ', h('span', { class: 'detail' }, detail(x)),
            x.doc ? h('div', { class: 'doc' }, firstLine(x.doc)) : null))));
      }),
    );
  }
  app.onLoad((reply) => { if (!reply || reply.ok) render(); });
  render();
  return { shown: render };
}
