// Highlighting for the editor, driven by the VS Code extension's TextMate grammar: the keyword lists
// and patterns live there alone, and this file only runs them. It is a small subset of TextMate:
// `match` with captures, `begin`/`end` blocks with a `contentName`, and `include` of the grammar's
// repository, which is all that grammar uses. CodeMirror's StreamLanguage makes it incremental.
import { StreamLanguage } from '@codemirror/language';
import grammar from '../../editors/vscode/syntaxes/mettle.tmLanguage.json';

// TextMate scopes to CodeMirror's token names (tags from @lezer/highlight), the longest prefix first.
const SCOPES = [
  ['comment.line.documentation', 'docComment'],
  ['comment', 'comment'],
  ['constant.character.escape', 'escape'],
  ['string', 'string'],
  ['keyword.other.declaration', 'definitionKeyword'],
  ['keyword.control', 'controlKeyword'],
  ['keyword.operator.word', 'operatorKeyword'],
  ['keyword.operator', 'operator'],
  ['keyword', 'keyword'],
  ['entity.name.type', 'typeName.definition'],
  ['entity.name.constant', 'atom'],
  ['entity.name', 'variableName.definition'],
  ['constant.numeric', 'number'],
  ['constant.language', 'bool'],
  ['storage.type', 'typeName'],
  ['variable.other.declaration', 'variableName.definition'],
  ['variable', 'variableName'],
  ['punctuation', 'punctuation'],
];

function tokenName(scope) {
  if (!scope) return null;
  for (const [prefix, name] of SCOPES) if (scope.startsWith(prefix)) return name;
  return null;
}

// A compiled pattern: `kind` is 'match', 'begin' or 'list' (an include or a bare `patterns` list).
function compile(rule, seen = new Map()) {
  if (seen.has(rule)) return seen.get(rule);
  const out = { kind: 'list', patterns: [] };
  seen.set(rule, out);
  if (rule.include) {
    const name = rule.include.replace(/^#/, '');
    const target = name === '$self' ? grammar : grammar.repository[name];
    if (!target) throw new Error(`grammar: no rule named ${rule.include}`);
    return Object.assign(out, compile(target, seen));
  }
  if (rule.match) {
    Object.assign(out, {
      kind: 'match',
      re: new RegExp(rule.match, 'dg'),
      name: rule.name,
      captures: rule.captures || {},
    });
  } else if (rule.begin) {
    Object.assign(out, {
      kind: 'begin',
      re: new RegExp(rule.begin, 'dg'),
      end: new RegExp(rule.end, 'dg'),
      name: rule.name,
      contentName: rule.contentName,
      captures: rule.beginCaptures || rule.captures || {},
      endCaptures: rule.endCaptures || rule.captures || {},
    });
  }
  if (rule.patterns) out.patterns = rule.patterns.map((p) => compile(p, seen));
  return out;
}


// The patterns tried inside a rule, with includes flattened.
function flatten(patterns, into = []) {
  for (const p of patterns) {
    if (p.kind === 'list') flatten(p.patterns, into);
    else into.push(p);
  }
  return into;
}
const flat = new WeakMap();
function candidates(rule) {
  if (!flat.has(rule)) flat.set(rule, flatten(rule.patterns));
  return flat.get(rule);
}

function execAt(re, line, pos) {
  re.lastIndex = pos;
  return re.exec(line);
}

// Each pattern's next match in the line being read, kept while the reading moves along it: a match
// found from an earlier position is still the first one from any position up to its start, so a
// pattern is searched again only once the reading has passed it.
let seenLine = null, seenRule = null, seenPos = 0;
const nextMatch = new Map();
function firstFrom(p, line, pos, rule) {
  if (line !== seenLine || rule !== seenRule || pos < seenPos) { seenLine = line; seenRule = rule; nextMatch.clear(); }
  seenPos = pos;
  const had = nextMatch.get(p);
  if (had !== undefined && (had === null || had.index >= pos)) return had;
  const m = execAt(p.re, line, pos);
  nextMatch.set(p, m);
  return m;
}

// The pieces a match colours: the whole match in `name`, its captured groups in their own scopes.
function segments(m, name, captures, outer) {
  const start = m.index, end = start + m[0].length;
  const base = tokenName(name) ?? outer;
  const marks = [];
  for (const [group, cap] of Object.entries(captures)) {
    const idx = m.indices[Number(group)];
    // A comment's or a string's own punctuation (`//`, quotes) reads as the comment or string.
    const own = cap.name?.startsWith('punctuation.definition') ? null : tokenName(cap.name);
    if (idx && idx[1] > idx[0]) marks.push([idx[0], idx[1], own ?? base]);
  }
  marks.sort((a, b) => a[0] - b[0]);
  const out = [];
  let at = start;
  for (const [s, e, tok] of marks) {
    if (s < at) continue;
    if (s > at) out.push([at, s, base]);
    out.push([s, e, tok]);
    at = e;
  }
  if (at < end) out.push([at, end, base]);
  return out;
}

function outerToken(state) {
  for (let i = state.stack.length - 1; i >= 0; i--) {
    const r = state.stack[i];
    const t = tokenName(r.contentName) ?? tokenName(r.name);
    if (t) return t;
  }
  return null;
}

// One step at `pos`: the earliest match among the open block's end and its patterns (the end wins a
// tie), as segments to colour; the state's stack is updated.
function step(top, state, line, pos) {
  const open = state.stack[state.stack.length - 1];
  const rule = open ?? top;
  let best = null, bestRule = null;
  if (open) {
    const m = execAt(open.end, line, pos);
    if (m) { best = m; bestRule = 'end'; }
  }
  for (const p of candidates(rule)) {
    const m = firstFrom(p, line, pos, rule);
    if (m && (!best || m.index < best.index)) { best = m; bestRule = p; }
  }
  const outer = outerToken(state);
  if (!best) return [[pos, line.length, outer]];
  const gap = best.index > pos ? [[pos, best.index, outer]] : [];
  if (bestRule === 'end') {
    state.stack.pop();
    return gap.concat(segments(best, open.name, open.endCaptures, outer));
  }
  if (bestRule.kind === 'begin') {
    const segs = segments(best, bestRule.name, bestRule.captures, outer);
    state.stack.push(bestRule);
    return gap.concat(segs);
  }
  return gap.concat(segments(best, bestRule.name, bestRule.captures, outer));
}

// Blocks whose end is a zero-width `$` close at the end of the line (an unclosed string).
function closeAtEol(state, line) {
  while (state.stack.length) {
    const open = state.stack[state.stack.length - 1];
    const m = execAt(open.end, line, line.length);
    if (m && m.index === line.length && m[0].length === 0) state.stack.pop();
    else break;
  }
}

// A StreamLanguage parser whose outermost patterns are `patterns` of the grammar.
function parserFor(name, patterns) {
  const top = compile({ patterns });
  return {
    name,
    startState: () => ({ stack: [], queue: [] }),
    copyState: (s) => ({ stack: s.stack.slice(), queue: s.queue.map((q) => q.slice()) }),
    token(stream, state) {
      const line = stream.string;
      while (!state.queue.length || state.queue[0][0] !== stream.pos) {
        state.queue = step(top, state, line, stream.pos).filter(([s, e]) => e > s);
        if (!state.queue.length) { // only a zero-width match: step over one character
          stream.next();
          return outerToken(state);
        }
      }
      const [, end, tok] = state.queue.shift();
      stream.pos = end;
      if (stream.eol()) { state.queue = []; closeAtEol(state, line); }
      return tok;
    },
    blankLine(state) { closeAtEol(state, ''); },
    languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
  };
}

const mettleParser = parserFor('mettle', grammar.patterns);
const rhaiParser = parserFor('rhai', [{ include: '#rhai' }]);

/** The mettle language for CodeMirror 6. */
export const mettle = StreamLanguage.define(mettleParser);
/** Script files (Rhai): as the grammar colours scripts inside a ruleset. */
export const rhai = StreamLanguage.define(rhaiParser);
/** For tests: the bare stream parsers. */
export const parsers = { mettle: mettleParser, rhai: rhaiParser };
