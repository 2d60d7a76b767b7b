// The Odds panel: pick a check, set its inputs and the house rules, and read the exact chance of
// each outcome with a chart of its numbers; or sweep one or two inputs over their values.
import { h, fill, percent } from '../text.js';
import { fieldset, typeOf } from '../forms.js';
import { bars, lines, COLOURS } from '../chart.js';

// An exact chance as a fraction, its terms cut short when they run long (the whole in its title).
function fraction(exact) {
  if (!exact) return '≈';
  if (exact.length <= 21) return exact;
  const [num, den] = exact.split('/');
  const cut = (t) => (t.length > 8 ? `${t.slice(0, 6)}…(${t.length} digits)` : t);
  return `${cut(num)} / ${cut(den)}`;
}

// A value of a type to start a field at when the rules give no default.
function firstValue(t) {
  if (t.type === 'range') return String(t.lo ?? 0);
  if (t.type === 'states') return t.states[0];
  if (t.type === 'flag') return 'no';
  return null;
}

export function oddsPanel(root, app) {
  const timings = (window.mettleTimings.odds = []);
  const pick = h('select', { id: 'odds-check' });
  const doc = h('p', { class: 'doc' });
  const form = h('form', { class: 'odds-form', onsubmit: (e) => e.preventDefault() });
  const out = h('div', { class: 'odds-out', 'aria-live': 'polite' });
  fill(root,
    h('div', { class: 'row' }, h('label', { for: 'odds-check' }, 'Check'), pick),
    doc, form, out);

  let fields = null, options = null, stand = null, sweepA = null, sweepB = null, heatOf = null;
  let check = null;
  let seq = 0;
  const kept = new Map(); // the values set in each check's form, kept when the rules reload

  // One "vary" control: an input of the check to run through its values, with a range for numbers.
  function sweepControl(label, id) {
    const which = h('select', { id }, h('option', { value: '' }, '(nothing)'),
      check.inputs.map((i) => h('option', { value: i.name }, i.name)));
    const lo = h('input', { type: 'number', 'aria-label': `${label}: from`, class: 'short' });
    const hi = h('input', { type: 'number', 'aria-label': `${label}: to`, class: 'short' });
    const range = h('span', { class: 'range', hidden: true }, 'from ', lo, ' to ', hi);
    // Numbers get a range, from their lowest to their highest (or around their default).
    const showRange = () => {
      const input = check.inputs.find((i) => i.name === which.value);
      const t = input && typeOf(input, app.outline.kinds.map((k) => k.name));
      range.hidden = !(t && t.type === 'range');
      if (t?.type === 'range') {
        const dflt = Number(input.default ?? t.lo ?? 0);
        lo.value = t.lo ?? dflt - 3;
        hi.value = t.hi ?? dflt + 3;
      }
    };
    which.addEventListener('change', () => { showRange(); update(); });
    for (const el of [lo, hi]) el.addEventListener('input', update);
    const el = h('div', { class: 'field' }, h('label', { for: id }, label), which, range);
    return {
      el,
      /** What is chosen, to choose it again after the rules reload. */
      get state() { return [which.value, lo.value, hi.value]; },
      set state([name, from, to]) {
        if (![...which.options].some((o) => o.value === name)) return;
        which.value = name;
        showRange();
        if (!range.hidden) { lo.value = from; hi.value = to; }
      },
      read() {
        if (!which.value) return null;
        // A number left without a range is swept over its declared one (the library says when it
        // has none short enough).
        const ranged = !range.hidden && lo.value !== '' && hi.value !== '';
        return [which.value, ranged ? [Number(lo.value), Number(hi.value)] : null];
      },
    };
  }

  function build() {
    const o = app.outline;
    const prev = pick.value;
    fill(pick, ...(o?.checks ?? []).map((c) => h('option', { value: c.name }, c.name)));
    if (!o?.checks.length) {
      fill(form); fill(out, h('p', { class: 'empty' }, o ? 'This ruleset has no checks.' : 'Loading…'));
      check = null;
      return;
    }
    if (o.checks.some((c) => c.name === prev)) pick.value = prev;
    check = o.checks.find((c) => c.name === pick.value);
    doc.textContent = (check.doc ?? '').split('\n\n')[0].replace(/\n/g, ' ');
    const kinds = o.kinds.map((k) => k.name);
    if (fields && fields.check) {
      kept.set(fields.check, { inputs: fields.values(), options: options.values(), sweeps: [sweepA.state, sweepB.state] });
    }
    // An input with no default starts at its lowest value (the rules need one to ask the odds).
    fields = fieldset(check.inputs.map((i) => ({ ...i, start: firstValue(typeOf(i, kinds)) })), { kinds, onchange: update });
    fields.check = check.name;
    options = fieldset(o.options, { kinds, onchange: update });
    const was = kept.get(check.name);
    if (was) { fields.set(was.inputs); options.set(was.options); }
    const maker = check.made_by && o.kinds.find((k) => k.name === check.made_by);
    // The stand-in's attributes; one with no default gets its lowest value, to be changed here.
    const standAttrs = maker ? maker.attributes.filter((a) => typeOf(a, kinds).type !== 'entity') : [];
    const needed = standAttrs.filter((a) => a.default == null).map((a) => a.name);
    stand = maker ? fieldset(standAttrs.map((a) => ({ ...a, start: firstValue(typeOf(a, kinds)) })), { kinds, onchange: update }) : null;
    sweepA = sweepControl('Vary', 'odds-vary-1');
    sweepB = sweepControl('and vary', 'odds-vary-2');
    fill(form, ...[
      h('fieldset', {}, h('legend', {}, 'Inputs'), check.inputs.length ? fields.els : h('p', { class: 'empty' }, 'This check has no inputs.')),
      o.options.length ? h('fieldset', {}, h('legend', {}, 'House rules'), options.els) : null,
      stand ? h('details', { class: 'stand-in', open: needed.length > 0 },
        h('summary', {}, `The ${check.made_by} who rolls (a stand-in, its attributes at their defaults unless set here)`),
        needed.length ? h('p', { class: 'hint' }, `${needed.join(', ')} ${needed.length === 1 ? 'has' : 'have'} no default in the rules: set ${needed.length === 1 ? 'it' : 'them'} here.`) : null,
        h('div', { class: 'grid' }, stand.els)) : null,
      h('fieldset', { class: 'sweep' }, h('legend', {}, 'Sweep: see the chances change as inputs change'), sweepA.el, sweepB.el),
    ].filter(Boolean));
    if (was?.sweeps) { sweepA.state = was.sweeps[0]; sweepB.state = was.sweeps[1]; }
    update();
  }

  function outcomeTable(doc) {
    return h('table', { class: 'odds-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Outcome'), h('th', { scope: 'col' }, 'Exact chance'), h('th', { scope: 'col' }, 'Percent'), h('th', { scope: 'col', class: 'barcol' }, h('span', { class: 'sr' }, 'Bar')))),
      h('tbody', {}, doc.outcomes.map((o, i) => h('tr', { 'data-outcome': o.outcome },
        h('th', { scope: 'row' }, o.outcome),
        h('td', { class: 'exact', title: o.exact ?? 'estimated' }, fraction(o.exact)),
        h('td', { class: 'num' }, percent(o.probability)),
        h('td', { class: 'barcol' }, h('span', { class: 'bar', style: `width:${(o.probability * 100).toFixed(2)}%;background:${COLOURS[i % COLOURS.length]}` }))))));
  }

  function showOne(doc) {
    const valuePick = h('select', { 'aria-label': 'Number to chart' }, doc.values.map((v) => h('option', { value: v.name }, v.name)));
    const chartBox = h('div', { class: 'chart-box' });
    const draw = () => {
      const v = doc.values.find((x) => x.name === valuePick.value);
      fill(chartBox, v ? bars(v.distribution.map((d) => ({ label: String(d.value), p: d.probability, exact: d.exact })), { title: `Chance of each ${v.name}` }) : '');
    };
    valuePick.addEventListener('change', draw);
    draw();
    fill(out,
      outcomeTable(doc),
      h('p', { class: 'question' }, doc.exact ? 'Exact: ' : 'Estimated by simulation (exact odds were out of reach): ', doc.question),
      doc.values.length ? h('div', { class: 'row' }, h('span', {}, 'Chart of'), valuePick) : null,
      chartBox);
  }

  function showSweep(doc, names) {
    const outcomes = doc.rows[0]?.outcomes.map((o) => o.outcome) ?? [];
    const p = (row, name) => row.outcomes.find((o) => o.outcome === name)?.probability ?? 0;
    const ex = (row, name) => row.outcomes.find((o) => o.outcome === name)?.exact ?? '';
    if (names.length === 1) {
      const [a] = names;
      fill(out,
        h('p', { class: 'question' }, doc.question),
        lines(doc.rows.map((r) => String(r.set[a])), outcomes.map((o) => ({ name: o, ps: doc.rows.map((r) => p(r, o)) })), { title: `Chances as ${a} changes`, xLabel: a }),
        h('table', { class: 'sweep-table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, a), outcomes.map((o) => h('th', { scope: 'col' }, o)))),
          h('tbody', {}, doc.rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, String(r.set[a])),
            outcomes.map((o) => h('td', { title: ex(r, o) }, percent(p(r, o)))))))));
      return;
    }
    const [a, b] = names;
    const as = [...new Set(doc.rows.map((r) => JSON.stringify(r.set[a])))].map((x) => JSON.parse(x));
    const bs = [...new Set(doc.rows.map((r) => JSON.stringify(r.set[b])))].map((x) => JSON.parse(x));
    heatOf = h('select', { 'aria-label': 'Outcome shown' }, outcomes.map((o) => h('option', { value: o }, o)));
    const grid = h('div');
    const draw = () => {
      const o = heatOf.value;
      const find = (x, y) => doc.rows.find((r) => r.set[a] === x && r.set[b] === y);
      fill(grid, h('table', { class: 'heat' },
        h('caption', {}, `Chance of ${o}: ${a} down, ${b} across`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, `${a} \\ ${b}`), bs.map((y) => h('th', { scope: 'col' }, String(y))))),
        h('tbody', {}, as.map((x) => h('tr', {}, h('th', { scope: 'row' }, String(x)), bs.map((y) => {
          const row = find(x, y);
          const v = row ? p(row, o) : 0;
          return h('td', { style: `background:rgba(47,111,176,${(0.08 + v * 0.85).toFixed(3)});color:${v > 0.55 ? '#fff' : '#111'}`, title: row ? ex(row, o) : '' }, percent(v));
        }))))));
    };
    heatOf.addEventListener('change', draw);
    draw();
    fill(out, h('p', { class: 'question' }, doc.question), h('div', { class: 'row' }, h('span', {}, 'Show'), heatOf), grid);
  }

  async function update() {
    if (!check) return;
    const mine = ++seq;
    // Only what differs from the rules' defaults is sent, so the question names what was set, as
    // the command's does, and the rules are loaded again only for a house rule actually changed.
    const args = { check: check.name, inputs: fields.changed(), options: options.changed(), with: stand ? stand.changed() : undefined };
    const sweeps = [sweepA.read(), sweepB.read()].filter(Boolean).filter((s, i, all) => all.findIndex((t) => t[0] === s[0]) === i);
    for (const [name] of sweeps) delete args.inputs[name];
    for (const f of fields.fields) f.control.disabled = sweeps.some(([name]) => name === f.name);
    const t0 = performance.now();
    root.dataset.pending = 'yes';
    out.setAttribute('aria-busy', 'true');
    try {
      const doc = sweeps.length
        ? await app.engine.call('sweep', { ...args, over: Object.fromEntries(sweeps) })
        : await app.engine.call('odds', args);
      if (mine !== seq) return;
      if (sweeps.length) showSweep(doc, sweeps.map((s) => s[0])); else showOne(doc);
      // The time from the change to the answer drawn, in the page.
      timings.push({ check: check.name, sweep: sweeps.length, ms: performance.now() - t0 });
      Object.assign(root.dataset, { ready: String(mine), check: check.name, pending: '' });
      out.removeAttribute('aria-busy');
    } catch (e) {
      if (mine !== seq) return;
      Object.assign(root.dataset, { ready: String(mine), check: check.name, pending: '' });
      out.removeAttribute('aria-busy');
      fill(out, e.stopped ? h('p', { class: 'error' }, 'Stopped.') : h('div', { class: 'error diag', 'data-code': e.code ?? '' },
        h('div', { class: 'diag-head' }, e.code ? h('code', { class: 'diag-code' }, e.code) : null, ' ', e.message),
        e.help ? h('div', { class: 'diag-help' }, h('b', {}, 'help: '), e.help) : null));
    }
  }

  pick.addEventListener('change', () => { check = app.outline.checks.find((c) => c.name === pick.value); build(); });
  let builtFor = -1;
  const refresh = () => { if (!root.hidden && builtFor !== app.version) { builtFor = app.version; build(); } };
  app.onLoad(refresh);
  return { shown: refresh };
}
