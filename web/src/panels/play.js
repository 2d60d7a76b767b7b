// The Play panel: a game on the rules. Make units, fire events with their facts, answer the
// questions the rules ask, and read what happened and why.
import { h, fill, shown } from '../text.js';
import { fieldset } from '../forms.js';
import { renderLog } from '../log.js';

export function playPanel(root, app) {
  let state = null; // the game's state, or null before a game starts
  let question = null;
  let gameVersion = -1; // the rules' version the game plays
  let saved = null; // the game as of its last action, to carry it over a Stop
  const seed = h('input', { id: 'play-seed', type: 'number', value: '1', min: '0', class: 'short' });
  const startBtn = h('button', { type: 'button', class: 'primary' }, 'New game');
  const undoBtn = h('button', { type: 'button', title: 'Take back the last thing done' }, 'Undo');
  const stale = h('p', { class: 'warn', hidden: true }, 'The rules changed since this game started: it plays the rules as they were. Start a new game to play the new ones.');
  const message = h('p', { class: 'error', role: 'alert', hidden: true });
  const makeBox = h('form', { class: 'play-make', 'aria-label': 'Make a unit' });
  const eventBox = h('form', { class: 'play-event', 'aria-label': 'Trigger an event' });
  const questionBox = h('div', { class: 'question-box', role: 'region', 'aria-label': 'Question', hidden: true });
  const table = h('div', { class: 'entities' });
  const log = h('div', { class: 'play-log' });
  fill(root,
    h('p', { class: 'hint' }, 'Put units on the table, then fire events as they happen in your game. The rules roll the dice and say what they did, line by line.'),
    h('div', { class: 'row' }, startBtn, h('label', { for: 'play-seed' }, 'Dice seed'), seed, undoBtn),
    stale, message,
    h('div', { class: 'play-grid' },
      h('section', {}, h('h3', {}, 'Make a unit'), makeBox),
      h('section', {}, h('h3', {}, 'Trigger an event'), eventBox)),
    questionBox,
    h('section', {}, h('h3', {}, 'On the table'), table),
    h('section', {}, h('h3', {}, 'What happened'), log));

  const kinds = () => app.outline.kinds.map((k) => k.name);
  const entitiesByKind = () => {
    const out = {};
    for (const e of state?.entities ?? []) (out[e.kind] ??= []).push(e.name);
    return out;
  };

  function fail(e) {
    if (e.stopped) { message.textContent = 'Stopped: the game was brought back as of its last action.'; message.hidden = false; restoreAfterStop(); return; }
    message.textContent = `${e.message}${e.help ? ` — ${e.help}` : ''}`;
    message.hidden = false;
  }

  async function act(op, args) {
    message.hidden = true;
    try {
      const r = await app.engine.call(op, args);
      state = r.state;
      question = r.question ?? null;
      if (r.log?.length) log.append(renderLog(r.log, app));
      log.lastElementChild?.scrollIntoView({ block: 'nearest' });
      saved = await app.engine.call('save');
      render();
      return r;
    } catch (e) { fail(e); return null; }
  }

  async function restoreAfterStop() {
    if (!saved) { state = null; render(); return; }
    try {
      const r = await app.engine.call('restore', { save: saved });
      state = r.state; question = r.question; render();
    } catch (e) { message.textContent = `The game could not be brought back: ${e.message}`; state = null; render(); }
  }

  async function start() {
    if (!app.outline) return;
    message.hidden = true;
    try {
      const r = await app.engine.call('newGame', { seed: Number(seed.value || 0) });
      state = r.state; question = null; gameVersion = app.version;
      saved = await app.engine.call('save');
      fill(log);
      render();
      renderForms();
    } catch (e) { fail(e); }
  }
  startBtn.addEventListener('click', start);
  undoBtn.addEventListener('click', async () => {
    const r = await act('undo');
    if (r) log.append(h('p', { class: 'hint' }, 'The last step was taken back.'));
  });

  function renderForms() {
    const o = app.outline;
    if (!o || !state) {
      fill(makeBox, h('p', { class: 'empty' }, 'Start a game first.'));
      fill(eventBox);
      return;
    }
    // Make a unit: its kind, a name, and the attributes that differ from their defaults.
    const kindPick = h('select', { id: 'make-kind' }, o.kinds.map((k) => h('option', { value: k.name }, k.name)));
    const name = h('input', { id: 'make-name', type: 'text', required: true, autocomplete: 'off', placeholder: 'a name, such as alpha' });
    const attrs = h('div', { class: 'grid' });
    let attrFields = null;
    const drawAttrs = () => {
      const kind = o.kinds.find((k) => k.name === kindPick.value);
      attrFields = fieldset(kind.attributes, { kinds: kinds(), entities: entitiesByKind() });
      fill(attrs, ...attrFields.els);
    };
    kindPick.addEventListener('change', drawAttrs);
    drawAttrs();
    makeBox.onsubmit = async (e) => {
      e.preventDefault();
      const r = await act('create', { kind: kindPick.value, name: name.value.trim(), attributes: attrFields.values() });
      if (r) { name.value = ''; renderForms(); }
    };
    fill(makeBox,
      h('div', { class: 'field' }, h('label', { for: 'make-kind' }, 'Kind'), kindPick),
      h('div', { class: 'field' }, h('label', { for: 'make-name' }, 'Name'), name),
      h('details', {}, h('summary', {}, 'Attributes (defaults unless changed)'), attrs),
      h('button', { type: 'submit' }, 'Put it on the table'));

    // Trigger an event: its facts as a form.
    const events = o.events;
    const eventPick = h('select', { id: 'event-name' }, events.map((ev) => h('option', { value: ev.name }, ev.built_in ? `${ev.name} (built in)` : ev.name)));
    const facts = h('div', { class: 'grid' });
    const evDoc = h('p', { class: 'doc' });
    const dice = h('input', { id: 'event-dice', type: 'text', inputmode: 'numeric', placeholder: 'e.g. 3 5', autocomplete: 'off' });
    let factFields = null;
    const drawFacts = () => {
      const ev = events.find((x) => x.name === eventPick.value);
      factFields = fieldset(ev.facts, { kinds: kinds(), entities: entitiesByKind() });
      fill(facts, ...(factFields.els.length ? factFields.els : [h('p', { class: 'empty' }, 'No facts to give.')]));
      evDoc.textContent = (ev.doc ?? '').split('\n\n')[0].replace(/\n/g, ' ');
    };
    eventPick.addEventListener('change', drawFacts);
    const prev = eventBox.querySelector('#event-name')?.value;
    if (prev && events.some((x) => x.name === prev)) eventPick.value = prev;
    else { const first = events.find((x) => !x.built_in); if (first) eventPick.value = first.name; }
    drawFacts();
    eventBox.onsubmit = async (e) => {
      e.preventDefault();
      const faces = dice.value.split(/[\s,]+/).filter(Boolean).map(Number);
      if (faces.some((f) => !Number.isInteger(f))) { fail(new Error('The dice to show must be whole numbers, such as 3 5.')); return; }
      const r = await act('apply', { event: eventPick.value, facts: factFields.values(), dice: faces });
      if (r) dice.value = '';
    };
    fill(eventBox,
      h('div', { class: 'field' }, h('label', { for: 'event-name' }, 'Event'), eventPick), evDoc, facts,
      h('div', { class: 'field' }, h('label', { for: 'event-dice' }, 'Next dice show (optional)'), dice),
      h('button', { type: 'submit' }, 'Trigger'));
  }

  function renderQuestion() {
    questionBox.hidden = !question;
    if (!question) { fill(questionBox); return; }
    const q = question;
    const answers = q.range
      ? [h('label', { for: 'answer-number' }, 'Answer'),
        h('input', { id: 'answer-number', type: 'number', min: q.range.lo, max: q.range.hi ?? undefined, value: q.default ?? q.range.lo }),
        h('button', { type: 'button', onclick: () => act('answer', { value: Number(questionBox.querySelector('#answer-number').value) }) }, 'Answer')]
      : q.options.map((v) => h('button', { type: 'button', class: v === q.default ? 'primary' : '', onclick: () => act('answer', { value: v }) }, shown(v)));
    fill(questionBox,
      h('p', {}, h('b', {}, 'The rules ask: '), q.question, q.asker ? ` (about ${q.asker})` : ''),
      h('div', { class: 'row' }, answers, h('button', { type: 'button', onclick: () => act('cancel') }, 'Cancel the action')),
      q.default != null ? h('p', { class: 'hint' }, `Left to the rules, the answer would be ${shown(q.default)}.`) : null);
  }

  function render() {
    stale.hidden = !state || gameVersion === app.version;
    undoBtn.disabled = !state;
    renderQuestion();
    if (!state) { fill(table, h('p', { class: 'empty' }, 'No game yet: press New game.')); return; }
    const head = h('p', { class: 'round' }, `Round ${state.round}, turn ${state.turn}`,
      state.over ? ` — the game is over: ${state.over.result}${state.over.winner ? `, won by ${state.over.winner}` : ''}` : '');
    fill(table, head, state.entities.length ? h('table', { class: 'entity-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Kind'), h('th', { scope: 'col' }, 'Attributes'))),
      h('tbody', {}, state.entities.map((e) => h('tr', {},
        h('th', { scope: 'row' }, e.name), h('td', {}, e.kind),
        h('td', { class: 'attrs' }, e.attributes.map((a) => h('span', { class: 'attr' }, `${a.name} ${shown(a.value)}`))))))) : h('p', { class: 'empty' }, 'Nothing on the table yet.'));
  }

  app.onLoad(() => { if (state) render(); else if (app.outline) renderForms(); });
  render();
  renderForms();
  return { shown() { if (!state && app.outline) start(); } };
}
