// The explained log, in words: one line per entry of the engine's typed log (schemas/play.json),
// indented under the event that caused it, each with a link to the line of the rule behind it.
import { h, shown } from './text.js';

function named(list) {
  return (list ?? []).map((n) => `${n.name}: ${shown(n.value)}`).join(', ');
}

/** One die as the text log shows it: its face, then what happened to it on the way. */
function die(d) {
  let s = String(d.face);
  if (d.rerolled?.length) s += ` (rerolled ${d.rerolled.join(', ')})`;
  if (d.raised != null) s += ` (raised from ${d.raised})`;
  if (d.exploded) s += ' (exploded)';
  if (d.from) s += ` (${d.from})`;
  return d.kept ? s : `${s} dropped`;
}

/** The dice of a pool: `dice 2d6: 5, 1 (rerolled 1) = 6`. */
function diceLine(pool) {
  return `dice ${pool.notation}: ${pool.dice.map(die).join(', ')} = ${pool.value}`;
}

function checkLines(c) {
  const out = [];
  const who = c.subject ? `${c.subject} rolls` : 'rolls';
  const inputs = (c.inputs ?? []).map((n) => `${n.name}=${shown(n.value)}`).join(', ');
  out.push([`${who} check ${c.check}(${inputs})`, c.span]);
  // A roll that `reroll when …` set aside comes first, with the outcome that sent it back.
  for (const old of c.rerolled ?? []) {
    const dice = old.pool ? `${diceLine(old.pool)}, ` : '';
    out.push([`  ${dice}total ${old.total}: ${old.outcome}, so rolled again`, null]);
  }
  if (c.pool) out.push([`  ${diceLine(c.pool)}`, null]);
  for (const m of c.modifiers ?? []) {
    const amount = m.dice ? `${m.amount >= 0 ? '+' : ''}${m.amount} dice` : `${m.amount >= 0 ? '+' : ''}${m.amount}`;
    out.push([`  ${m.label} ${amount}`, m.span]);
  }
  if (c.target != null) {
    out.push([`  total ${c.total} against target ${c.target} (margin ${c.margin >= 0 ? '+' : ''}${c.margin})`, null]);
  } else {
    out.push([`  total ${c.total}`, null]);
  }
  for (const v of c.values ?? []) out.push([`  ${v.name} = ${shown(v.value)}`, null]);
  out.push([`  outcome: ${c.outcome}`, c.outcome_span]);
  return out;
}

/** The text of one entry, as [text, span] pairs (a check takes several lines). */
export function describe(e) {
  switch (e.type) {
    case 'event': return [[`event ${e.name}${e.facts?.length ? `(${named(e.facts)})` : ''}`, null]];
    case 'rule': return [[`rule ${e.text}`, e.span]];
    case 'check': return checkLines(e);
    case 'roll': return [[`roll ${e.text}: ${e.faces.join(' ')} = ${e.value}`, e.span]];
    case 'change': return [[`${e.entity}.${e.field}: ${shown(e.from)} -> ${shown(e.to)}${e.note ? ` (${e.note})` : ''}`, e.span]];
    case 'expired': return [[`${e.entity}.${e.field} back to ${shown(e.to)} (its time is up)`, e.span]];
    case 'new': return [[`new ${e.kind} ${e.entity}`, e.span]];
    case 'skipped': return [[`skipped ${e.text} (${e.why})`, e.span]];
    case 'lookup': return [[`table ${e.table}[${e.keys.join(', ')}] = ${shown(e.value)}`, e.span]];
    case 'removed': return [[`${e.kind} ${e.entity} removed`, null]];
    case 'choice': return [[`choice ${e.name}: "${e.question}" -> ${shown(e.answer)} (by ${e.by})`, e.span]];
    case 'note': return [[`note: ${e.text}`, e.span]];
    case 'game_over': return [[`game over: ${e.label}${e.winner ? `, won by ${e.winner}` : ''}`, e.span]];
    case 'reaction': return [[`reaction ${e.name}`, e.span]];
    case 'order': return [[`order: ${e.text}${e.from ? ` (${e.from})` : ''}`, e.span]];
    case 'print': return [[`print: ${e.text}`, e.span]];
    case 'record': return [[`record ${e.label} = ${e.shown}`, e.span]];
    case 'expect': {
      const found = e.passed || e.found == null ? '' : ` (found ${e.found})`;
      return [[`expect ${e.text}: ${e.passed ? 'ok' : 'FAILED'}${found}${e.message ? ` — ${e.message}` : ''}`, e.span]];
    }
    default: return [[`${e.type} ${JSON.stringify(e)}`, null]];
  }
}

/**
 * The log as a list of lines. `lineOf(span)` gives a span's line in the ruleset; `goto(line)` is
 * called when a line link is followed.
 */
export function renderLog(entries, { lineOf, goto }) {
  const list = h('ol', { class: 'log' });
  for (const e of entries) {
    for (const [text, span] of describe(e)) {
      const line = span && span.end > span.start ? lineOf(span) : null;
      const cls = ['entry', `t-${e.type}`, e.type === 'expect' ? (e.passed ? 'pass' : 'fail') : ''].join(' ');
      list.append(h('li', { class: cls, style: `--depth:${e.depth ?? 0}` },
        h('span', { class: 'text' }, text),
        line ? h('button', { class: 'line', type: 'button', title: `Show line ${line} in the editor`, onclick: () => goto(line) }, `line ${line}`) : null,
      ));
    }
  }
  return list;
}
