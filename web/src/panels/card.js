// The Card panel: the ruleset's printable reference card, as the engine writes it (a whole page,
// shown in a frame that runs no script).
import { h, fill } from '../text.js';

export function cardPanel(root, app) {
  let madeFor = -1;
  const frame = h('iframe', { class: 'card-frame', title: 'Reference card', sandbox: 'allow-same-origin allow-modals' });
  const print = h('button', { type: 'button', onclick: () => frame.contentWindow.print() }, 'Print the card');
  const note = h('p', { class: 'hint' }, 'The card lists every check with its odds, the states, the tables and the rules, for the table.');
  fill(root, h('div', { class: 'row' }, print, note), frame);

  async function make() {
    if (!app.outline || madeFor === app.version) return;
    madeFor = app.version;
    try {
      frame.srcdoc = await app.engine.call('card');
      root.dataset.ready = 'yes';
    } catch (e) {
      if (!e.stopped) frame.srcdoc = `<p>${e.message}</p>`;
      madeFor = -1;
    }
  }
  app.onLoad(() => { if (!root.hidden) make(); });
  return { shown: make };
}
