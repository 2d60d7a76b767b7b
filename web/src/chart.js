// Small SVG charts: bars for a distribution, lines for a sweep over one input. Drawn by hand, as
// they are only rectangles, lines and labels.
const NS = 'http://www.w3.org/2000/svg';

function s(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text != null) el.textContent = text;
  return el;
}

/** Colours for outcomes, in order; the same outcome keeps its colour across charts. */
export const COLOURS = ['#2f6fb0', '#d0702a', '#3b9a57', '#b0413e', '#7d5ba6', '#8a6d3b', '#c2569b', '#5f7f8f'];

/** Bars of `points`: [{ label, p }], titled `title`. */
export function bars(points, { title, width = 460, height = 170 } = {}) {
  const pad = { l: 40, r: 8, t: 20, b: 26 };
  const w = width - pad.l - pad.r, hgt = height - pad.t - pad.b;
  const max = Math.max(...points.map((p) => p.p), 1e-9);
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-label': title ?? 'chart' });
  if (title) svg.append(s('text', { x: pad.l, y: 13, class: 'chart-title' }, title));
  for (const frac of [0, 0.5, 1]) {
    const y = pad.t + hgt - frac * hgt;
    svg.append(s('line', { x1: pad.l, x2: pad.l + w, y1: y, y2: y, class: 'grid' }));
    svg.append(s('text', { x: pad.l - 4, y: y + 4, class: 'axis', 'text-anchor': 'end' }, `${Math.round(frac * max * 100)}%`));
  }
  const bw = w / Math.max(points.length, 1);
  // A label every so many bars, so that labels never touch (8 units a character: the narrow window's font).
  const widest = Math.max(...points.map((pt) => String(pt.label).length), 1);
  const every = Math.max(1, Math.ceil((widest * 8 + 6) / bw));
  points.forEach((pt, i) => {
    const bh = (pt.p / max) * hgt;
    const x = pad.l + i * bw;
    const rect = s('rect', { x: x + bw * 0.1, y: pad.t + hgt - bh, width: Math.max(1, bw * 0.8), height: bh, fill: pt.colour ?? COLOURS[0] });
    rect.append(s('title', {}, `${pt.label}: ${(pt.p * 100).toFixed(2)}%${pt.exact ? ` (${pt.exact})` : ''}`));
    svg.append(rect);
    if (i % every === 0) svg.append(s('text', { x: x + bw / 2, y: height - 8, class: 'axis', 'text-anchor': 'middle' }, pt.label));
  });
  return svg;
}

/** Lines: `xs` along the bottom, `series`: [{ name, ps }] (chances 0..1), one line each. */
export function lines(xs, series, { title, xLabel, width = 460, height = 210 } = {}) {
  const pad = { l: 40, r: 110, t: 20, b: 40 };
  const w = width - pad.l - pad.r, hgt = height - pad.t - pad.b;
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-label': title ?? 'chart' });
  if (title) svg.append(s('text', { x: pad.l, y: 13, class: 'chart-title' }, title));
  for (const frac of [0, 0.25, 0.5, 0.75, 1]) {
    const y = pad.t + hgt - frac * hgt;
    svg.append(s('line', { x1: pad.l, x2: pad.l + w, y1: y, y2: y, class: 'grid' }));
    svg.append(s('text', { x: pad.l - 4, y: y + 4, class: 'axis', 'text-anchor': 'end' }, `${frac * 100}%`));
  }
  const X = (i) => pad.l + (xs.length <= 1 ? w / 2 : (i / (xs.length - 1)) * w);
  const Y = (p) => pad.t + hgt - p * hgt;
  // A label every so many points, so that names (a ladder's rungs) never run into each other.
  const gap = xs.length <= 1 ? w : w / (xs.length - 1);
  const every = Math.max(1, Math.ceil((Math.max(...xs.map((x) => String(x).length), 1) * 7 + 6) / gap));
  xs.forEach((x, i) => { if (i % every === 0) svg.append(s('text', { x: X(i), y: pad.t + hgt + 14, class: 'axis', 'text-anchor': 'middle' }, String(x))); });
  // The input's name, set apart from the values above it.
  if (xLabel) svg.append(s('text', { x: pad.l + w / 2, y: height - 3, class: 'axis-title', 'text-anchor': 'middle' }, xLabel));
  series.forEach((ser, k) => {
    const colour = COLOURS[k % COLOURS.length];
    svg.append(s('polyline', { points: ser.ps.map((p, i) => `${X(i)},${Y(p)}`).join(' '), fill: 'none', stroke: colour, 'stroke-width': 2 }));
    ser.ps.forEach((p, i) => {
      const dot = s('circle', { cx: X(i), cy: Y(p), r: 3, fill: colour });
      dot.append(s('title', {}, `${ser.name} at ${xs[i]}: ${(p * 100).toFixed(1)}%`));
      svg.append(dot);
    });
    svg.append(s('rect', { x: pad.l + w + 10, y: pad.t + k * 16, width: 10, height: 10, fill: colour }));
    svg.append(s('text', { x: pad.l + w + 24, y: pad.t + k * 16 + 9, class: 'legend' }, ser.name));
  });
  return svg;
}
