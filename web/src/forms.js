// Forms made from a ruleset's declarations: a check's inputs, an event's facts, a kind's attributes,
// the house rules. A field's control follows the outline `mettle export` gives: a list of the names
// its value may take (`names`: a set of states, a ladder's rungs lowest first) is a menu of them;
// otherwise its type: `0..6`, `flag`, a kind's name (an entity in play), `int`, `text`, `data`.
import { h } from './text.js';

let nextId = 0;

/** What a field of the outline takes: { type: 'states', states } (its `names`, from the library),
 *  { type: 'range', lo, hi } | 'flag' | 'entity' | 'text', read from its type. */
export function typeOf({ type, names }, kinds = []) {
  if (names?.length) return { type: 'states', states: names };
  const range = /^(-?\d+)\s*\.\.\s*(-?\d+)?$/.exec(type);
  if (range) return { type: 'range', lo: Number(range[1]), hi: range[2] == null ? null : Number(range[2]) };
  if (type === 'flag') return { type: 'flag' };
  if (type === 'int') return { type: 'range', lo: null, hi: null };
  if (kinds.includes(type)) return { type: 'entity', kind: type };
  return { type: 'text' };
}

/**
 * A labelled control for one field: `{ name, type, names, default, doc }` from the export, and
 * `start`, a value to show when the rules declare no default. `entities` maps a kind to the names in
 * play. Returns { el, read(), name } where read() gives the value to send, or undefined to leave the
 * field to its default.
 */
export function field(f, { kinds = [], entities = {}, optional = true, onchange } = {}) {
  const id = `f${nextId++}`;
  const t = typeOf(f, kinds);
  const deflt = f.default ?? f.start;
  let control, read;
  if (t.type === 'flag') {
    control = h('input', { id, type: 'checkbox', checked: deflt === 'yes', name: f.name });
    read = () => control.checked;
  } else if (t.type === 'range') {
    control = h('input', {
      id, type: 'number', name: f.name, step: '1', inputmode: 'numeric',
      min: t.lo ?? undefined, max: t.hi ?? undefined,
      placeholder: deflt ?? (optional ? 'default' : ''),
      value: deflt ?? '',
    });
    read = () => (control.value === '' ? undefined : Number(control.value));
  } else if (t.type === 'states' || t.type === 'entity') {
    const choices = t.type === 'states' ? t.states : (entities[t.kind] ?? []);
    const none = t.type === 'entity' || deflt == null;
    control = h('select', { id, name: f.name },
      none ? h('option', { value: '' }, t.type === 'entity' ? '(none)' : '(default)') : null,
      choices.map((c) => h('option', { value: c, selected: c === deflt }, c)));
    read = () => (control.value === '' ? (t.type === 'entity' ? null : undefined) : control.value);
  } else {
    control = h('input', { id, type: 'text', name: f.name, value: deflt ?? '', placeholder: `a ${f.type}, by name`, autocomplete: 'off' });
    read = () => (control.value === '' ? undefined : control.value);
  }
  if (onchange) control.addEventListener(control.tagName === 'SELECT' || control.type === 'checkbox' ? 'change' : 'input', onchange);
  const label = h('label', { for: id }, f.name, h('span', { class: 'type' }, f.type));
  const el = h('div', { class: `field field-${t.type}`, title: f.doc ?? undefined }, label, control);
  const write = (v) => {
    if (t.type === 'flag') control.checked = v === true;
    else control.value = v == null ? '' : String(v);
  };
  // Whether `v` is the default the rules declare (written as the outline writes it: yes, 3, steady).
  const declared = (v) => f.default != null && (typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v)) === f.default;
  return { el, read, write, declared, name: f.name, control, parsed: t };
}

/** A group of fields; `values()` gives those that are set. */
export function fieldset(fields, opts) {
  const made = fields.map((f) => field(f, opts));
  return {
    els: made.map((m) => m.el),
    fields: made,
    /** Sets the fields named in `values` (as `values()` gave them). */
    set(values) {
      for (const m of made) if (m.name in values) m.write(values[m.name]);
    },
    values() {
      const out = {};
      for (const m of made) {
        const v = m.read();
        if (v !== undefined) out[m.name] = v;
      }
      return out;
    },
    /** The values set to something other than the rules' default (what a question must say). */
    changed() {
      return Object.fromEntries(Object.entries(this.values()).filter(([name, v]) => !made.find((m) => m.name === name).declared(v)));
    },
  };
}
