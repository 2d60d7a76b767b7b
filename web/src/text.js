// Positions: the engine speaks in UTF-8 byte offsets, the editor in UTF-16 code units.

/** A function from byte offsets into `text` to UTF-16 offsets (identity for ASCII text). */
export function byteMapper(text) {
  if (/^[\x00-\x7f]*$/.test(text)) return (b) => Math.min(b, text.length);
  const bytes = new TextEncoder().encode(text);
  // starts[b] is the UTF-16 offset of the character that byte b belongs to.
  const starts = new Uint32Array(bytes.length + 1);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i);
    const n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    for (let k = 0; k < n; k++) starts[b + k] = i;
    b += n;
    if (c >= 0x10000) i++;
  }
  starts[bytes.length] = text.length;
  return (off) => starts[Math.max(0, Math.min(off, bytes.length))];
}

/** A function from byte offsets into `text` to 1-based line numbers. */
export function lineMapper(text) {
  const toUtf16 = byteMapper(text);
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  return (byte) => {
    const at = toUtf16(byte);
    let lo = 0, hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= at) lo = mid; else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** Makes an element: `h('p', { class: 'x', onclick }, 'text', child…)`. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** A value as the rules write it: yes/no, none, numbers and names. */
export function shown(v) {
  if (v === true) return 'yes';
  if (v === false) return 'no';
  if (v === null || v === undefined) return 'none';
  if (typeof v === 'object') {
    if ('notation' in v) return `${v.notation}: ${v.value}`;
    if ('check' in v && 'outcome' in v) return `${v.check} (${v.outcome})`;
    return JSON.stringify(v);
  }
  return String(v);
}

/** A chance as a percentage with one decimal (two below 1%). */
export function percent(p) {
  const x = p * 100;
  if (x > 0 && x < 1) return `${x.toFixed(2)}%`;
  return `${x.toFixed(1)}%`;
}

/** Replaces `el`'s children, as `h` takes them (nested lists flattened; null, undefined and false left out). */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false));
  return el;
}
