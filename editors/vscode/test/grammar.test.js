// The TextMate grammar against the shipped rulesets: every keyword, comment, string, number, dice
// expression and declared name gets the scope it should. The expectations come from the pest grammar
// (its keyword lists) and from plain scans of the text, not from the TextMate grammar itself.
// Run with `node grammar.test.js` after `npm ci` in this folder.
'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const root = path.join(__dirname, '..', '..', '..');
const grammarPath = path.join(__dirname, '..', 'syntaxes', 'mettle.tmLanguage.json');

// ------------------------------------------------------------------ what the pest grammar says

const pest = fs.readFileSync(path.join(root, 'grammar', 'mettle.pest'), 'utf8');
// Reserved words: the `keyword` rule.
const reservedRule = pest.match(/^keyword\s*=\s*@\{([\s\S]*?)\n\}/m);
assert(reservedRule, 'grammar/mettle.pest has a `keyword` rule');
const RESERVED = new Set([...reservedRule[1].matchAll(/"([a-z]+)"/g)].map((m) => m[1]));
// Every word the grammar spells out: the `kw_…` rules. Those that are not reserved are keywords only
// in some places (`target`, `dice`, `roll`…) and names elsewhere.
const ALL_WORDS = new Set([...pest.matchAll(/^kw_\w+\s*=\s*@\{\s*"([a-z]+)"/gm)].map((m) => m[1]));
const CONTEXTUAL = new Set([...ALL_WORDS].filter((w) => !RESERVED.has(w)));
assert(RESERVED.size >= 40 && CONTEXTUAL.size >= 20, `keywords read: ${RESERVED.size} + ${CONTEXTUAL.size}`);

/** The scope a reserved word must get, by what it is. */
function expectedKeywordScope(word) {
  if (['yes', 'no', 'none'].includes(word)) return 'constant.language';
  if (['and', 'or', 'not', 'is'].includes(word)) return 'keyword.operator.word';
  return 'keyword';
}

// Dice, as `dice` and `dice_tail` in the pest grammar spell them: a count, `d`, the sides (a number,
// faces in brackets, or a bracketed expression), then modifiers.
const CMP = '(?:<=|>=|<|>|=)';
const DICE = new RegExp(
  '(?<![A-Za-z0-9_])[0-9]*d(?:[0-9]+|\\[[-0-9, ]*\\]|(?=\\())' +
    `(?:(?:kh|kl|k)[0-9]+|(?:dh|dl)[0-9]+|x(?:${CMP}[0-9]+)?|(?:ro|r)${CMP}?[0-9]+|min[0-9]+|cs${CMP}?[0-9]+)*` +
    '(?![A-Za-z0-9_])',
  'g',
);

// ------------------------------------------------------------------ tokenising

async function loadGrammar() {
  const wasm = fs.readFileSync(path.join(__dirname, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === 'source.mettle' ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath) : null,
  });
  return registry.loadGrammar('source.mettle');
}

/** For each line, for each character, the scopes the grammar gives it, innermost last. */
function scopesOf(grammar, text) {
  let stack = vsctm.INITIAL;
  return text.split('\n').map((line) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    const at = new Array(line.length).fill([]);
    for (const t of r.tokens) {
      for (let i = t.startIndex; i < Math.min(t.endIndex, line.length); i++) at[i] = t.scopes;
    }
    return at;
  });
}

// ------------------------------------------------------------------ plain scans of the text

/** Marks each character of a line: 'c' comment, 'd' doc comment, 's' string, ' ' code. */
function regions(line) {
  const kind = new Array(line.length).fill(' ');
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    if (inString) {
      kind[i] = 's';
      if (line[i] === '"') inString = false;
    } else if (line[i] === '"') {
      kind[i] = 's';
      inString = true;
    } else if (line.startsWith('//', i)) {
      const k = line.startsWith('///', i) ? 'd' : 'c';
      for (let j = i; j < line.length; j++) kind[j] = k;
      break;
    }
  }
  return kind;
}

let checked = 0;
function expectScope(file, n, col, len, scopes, want, what) {
  for (let i = col; i < col + len; i++) {
    const got = scopes[i] || [];
    assert(
      got.some((s) => s.startsWith(want)),
      `${file}:${n + 1}:${i + 1}: ${what} should be ${want}…, is ${got.join(' ')}`,
    );
  }
  checked++;
}

/** Checks every line of one ruleset. Returns counts of what was checked, by kind. */
function checkFile(grammar, file, text) {
  const counts = { keyword: 0, comment: 0, string: 0, number: 0, dice: 0, name: 0 };
  const all = scopesOf(grammar, text);
  let scriptDepth = 0;
  text.split('\n').forEach((line, n) => {
    const scopes = all[n];
    // Inside `script { … }` is Rhai: only check that it is marked as such.
    if (scriptDepth === 0 && /^script\s*\{/.test(line)) {
      scriptDepth = 1;
      expectScope(file, n, 0, 6, scopes, 'keyword.other.declaration', 'the keyword `script`');
      return;
    }
    if (scriptDepth > 0) {
      for (const ch of line) scriptDepth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
      const body = scriptDepth > 0 ? line.length : line.lastIndexOf('}');
      const first = line.search(/\S/);
      if (first >= 0 && first < body) expectScope(file, n, first, body - first, scopes, 'source.rhai', 'a script');
      return;
    }
    const kind = regions(line);
    // Comments and strings, character by character.
    for (let i = 0; i < line.length; i++) {
      if (kind[i] === 'c') expectScope(file, n, i, 1, scopes, 'comment.line.double-slash', 'a comment');
      if (kind[i] === 'd') expectScope(file, n, i, 1, scopes, 'comment.line.documentation', 'a doc comment');
      if (kind[i] === 's') expectScope(file, n, i, 1, scopes, 'string.quoted.double', 'a string');
    }
    if (kind.includes('c') || kind.includes('d')) counts.comment++;
    counts.string += (line.match(/"/g) || []).length / 2;
    // Code only from here: comments and strings blanked out.
    const code = [...line].map((ch, i) => (kind[i] === ' ' ? ch : ' ')).join('');
    const taken = new Array(line.length).fill(false);
    for (const m of code.matchAll(DICE)) {
      expectScope(file, n, m.index, m[0].length, scopes, 'constant.numeric.dice', `dice \`${m[0]}\``);
      for (let i = m.index; i < m.index + m[0].length; i++) taken[i] = true;
      counts.dice++;
    }
    for (const m of code.matchAll(/(?<![A-Za-z0-9_])[0-9]+(?![A-Za-z0-9_])/g)) {
      if (taken[m.index]) continue;
      expectScope(file, n, m.index, m[0].length, scopes, 'constant.numeric.integer', `the number ${m[0]}`);
      counts.number++;
    }
    for (const m of code.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
      if (taken[m.index] || (m.index > 0 && /[0-9]/.test(code[m.index - 1]))) continue;
      const word = m[0];
      if (RESERVED.has(word)) {
        expectScope(file, n, m.index, word.length, scopes, expectedKeywordScope(word), `the keyword \`${word}\``);
        counts.keyword++;
      } else if (!CONTEXTUAL.has(word)) {
        // A name: never shown as a keyword.
        const got = (scopes[m.index] || []).slice(-1)[0] || '';
        assert(
          /^(variable|entity\.name|storage\.type)/.test(got),
          `${file}:${n + 1}:${m.index + 1}: the name \`${word}\` should be a variable or a declared name, is ${got}`,
        );
      }
    }
    // Words that are keywords where a check line or a statement starts with them.
    const start = code.match(/^(\s*)(input|roll|modifier|target|outcome|dice|follow|record|report|reroll|order|reaction)\b/);
    if (start && CONTEXTUAL.has(start[2])) {
      expectScope(file, n, start[1].length, start[2].length, scopes, 'keyword', `the line's keyword \`${start[2]}\``);
      counts.keyword++;
    }
    // Declared names.
    const declared = [
      /\b(?:kind|ladder|shape|event|define|table|check|result|scenario)\s+([A-Za-z_]\w*)/g,
      /^\s*on\s+([A-Za-z_]\w*)/g,
      /^\s*reaction\s+([A-Za-z_]\w*)/g,
      /\b(?:outcome|otherwise)\s+([A-Za-z_]\w*)/g,
    ];
    for (const re of declared) {
      for (const m of code.matchAll(re)) {
        if (RESERVED.has(m[1])) continue;
        const at = m.index + m[0].length - m[1].length;
        expectScope(file, n, at, m[1].length, scopes, 'entity.name', `the declared name \`${m[1]}\``);
        counts.name++;
      }
    }
  });
  return counts;
}

// ------------------------------------------------------------------ exact cases, written by hand

const EXACT = [
  [
    'check morale for unit {',
    [
      ['check', 'keyword.other.declaration.mettle'],
      ['morale', 'entity.name.function.mettle'],
      ['for', 'keyword.control.mettle'],
      ['unit', 'variable.other.mettle'],
      ['{', 'source.mettle'],
    ],
  ],
  [
    '  roll 3d6min2kh2 + d10x + (n)d6 + d[0,1,2] as r // rolled',
    [
      ['roll', 'keyword.other.mettle'],
      ['3d6min2kh2', 'constant.numeric.dice.mettle'],
      ['+', 'keyword.operator.arithmetic.mettle'],
      ['d10x', 'constant.numeric.dice.mettle'],
      ['n', 'variable.other.mettle'],
      ['d6', 'constant.numeric.dice.mettle'],
      ['d[0,1,2]', 'constant.numeric.dice.mettle'],
      ['as', 'keyword.other.mettle'],
      ['r', 'variable.other.mettle'],
      ['// rolled', 'comment.line.double-slash.mettle'],
    ],
  ],
  [
    '  report winner, losses',
    [
      ['report', 'keyword.other.mettle'],
      ['winner', 'variable.other.mettle'],
      ['losses', 'variable.other.mettle'],
    ],
  ],
  [
    '  let friend = nearest f in seen.friends where not f.in_combat by distance',
    [
      ['let', 'keyword.other.mettle'],
      ['friend', 'variable.other.declaration.mettle'],
      ['nearest', 'keyword.control.mettle'],
      ['f', 'variable.other.mettle'],
      ['in', 'keyword.control.mettle'],
      ['where', 'keyword.control.mettle'],
      ['not', 'keyword.operator.word.mettle'],
      ['by', 'keyword.control.mettle'],
      ['distance', 'variable.other.mettle'],
    ],
  ],
  [
    'reaction join(friend: friend) {',
    [
      ['reaction', 'keyword.other.declaration.mettle'],
      ['join', 'entity.name.function.mettle'],
    ],
  ],
  [
    '  order "move towards {friend.name} now"',
    [
      ['order', 'keyword.other.mettle'],
      ['{friend.name}', 'variable.other.interpolated.mettle'],
    ],
  ],
  [
    '  modifier "Spirit" +spi dice when spi >= 2 max 3',
    [
      ['modifier', 'keyword.other.mettle'],
      ['"Spirit"', 'string.quoted.double.mettle'],
      ['spi', 'variable.other.mettle'],
      ['dice', 'keyword.other.mettle'],
      ['when', 'keyword.control.mettle'],
      ['>=', 'keyword.operator.comparison.mettle'],
      ['2', 'constant.numeric.integer.mettle'],
      ['max', 'keyword.other.mettle'],
      ['3', 'constant.numeric.integer.mettle'],
    ],
  ],
  [
    '/// Morale Points (strict).',
    [['/// Morale Points (strict).', 'comment.line.documentation.mettle']],
  ],
  [
    'kind unit { spi: 0..6 = 3  shaken: flag = no }',
    [
      ['kind', 'keyword.other.declaration.mettle'],
      ['unit', 'entity.name.type.mettle'],
      ['0', 'constant.numeric.integer.mettle'],
      ['..', 'keyword.operator.range.mettle'],
      ['flag', 'storage.type.mettle'],
      ['no', 'constant.language.mettle'],
    ],
  ],
  [
    'shape situation { enemies: list of { name: text, distance: 0.. } = [] }',
    [
      ['shape', 'keyword.other.declaration.mettle'],
      ['situation', 'entity.name.type.mettle'],
      ['list of', 'storage.type.mettle'],
      ['text', 'storage.type.mettle'],
      ['0', 'constant.numeric.integer.mettle'],
    ],
  ],
  [
    'on damaged when hp_lost >= 3 and not unit.tested {',
    [
      ['on', 'keyword.other.declaration.mettle'],
      ['damaged', 'entity.name.function.event.mettle'],
      ['and', 'keyword.operator.word.mettle'],
      ['not', 'keyword.operator.word.mettle'],
      ['.', 'punctuation.accessor.mettle'],
      ['tested', 'variable.other.mettle'],
    ],
  ],
  [
    '  } until count(dice, 6) == 0 or turn >= 20',
    [
      ['until', 'keyword.control.mettle'],
      ['count', 'variable.other.mettle'],
      ['dice', 'variable.other.mettle'],
      ['or', 'keyword.operator.word.mettle'],
    ],
  ],
  [
    '  reroll when falters, shaken once if spend // a command point',
    [
      ['reroll', 'keyword.control.mettle'],
      ['when', 'keyword.control.mettle'],
      ['falters', 'variable.other.mettle'],
      ['shaken', 'variable.other.mettle'],
      ['once', 'keyword.control.mettle'],
      ['if', 'keyword.control.mettle'],
      ['spend', 'variable.other.mettle'],
    ],
  ],
];

function checkExact(grammar) {
  for (const [line, want] of EXACT) {
    const { tokens } = grammar.tokenizeLine(line, vsctm.INITIAL);
    let from = 0;
    for (const [text, scope] of want) {
      const at = line.indexOf(text, from);
      assert(at >= 0, `\`${text}\` is in \`${line}\``);
      from = at + text.length;
      for (let i = at; i < at + text.length; i++) {
        const t = tokens.find((tk) => tk.startIndex <= i && i < tk.endIndex);
        assert(
          t.scopes.includes(scope),
          `\`${text}\` in \`${line}\` should be ${scope}, is ${t.scopes.join(' ')}`,
        );
      }
      checked++;
    }
  }
}

// ------------------------------------------------------------------ the run

/** The shipped and test rulesets, and the examples in the docs, as [name, text]. */
function rulesets() {
  const dirs = ['rulesets', path.join('tests', 'inputs', 'good')];
  const files = dirs.flatMap((d) =>
    fs
      .readdirSync(path.join(root, d))
      .filter((f) => f.endsWith('.mettle'))
      .sort()
      .map((f) => [path.join(d, f), fs.readFileSync(path.join(root, d, f), 'utf8')]),
  );
  for (const doc of ['README.md', path.join('docs', 'language.md')]) {
    const text = fs.readFileSync(path.join(root, doc), 'utf8');
    let k = 0;
    for (const m of text.matchAll(/```mettle\n([\s\S]*?)```/g)) files.push([`${doc} example ${++k}`, m[1]]);
  }
  return files;
}

/** The extension's manifest names the language, its files, the grammar and the client. */
function checkManifest() {
  const dir = path.join(__dirname, '..');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const [language] = manifest.contributes.languages;
  assert.strictEqual(language.id, 'mettle');
  assert.deepStrictEqual(language.extensions, ['.mettle']);
  const config = JSON.parse(fs.readFileSync(path.join(dir, language.configuration), 'utf8'));
  assert.strictEqual(config.comments.lineComment, '//');
  const [grammar] = manifest.contributes.grammars;
  assert.strictEqual(grammar.language, 'mettle');
  const tm = JSON.parse(fs.readFileSync(path.join(dir, grammar.path), 'utf8'));
  assert.strictEqual(tm.scopeName, grammar.scopeName);
  assert(fs.existsSync(path.join(dir, manifest.main)), 'the client exists');
  assert(manifest.dependencies['vscode-languageclient'], 'the client depends on vscode-languageclient');
  assert(manifest.activationEvents.includes('onLanguage:mettle'));
}

(async () => {
  checkManifest();
  const grammar = await loadGrammar();
  checkExact(grammar);
  const total = { keyword: 0, comment: 0, string: 0, number: 0, dice: 0, name: 0 };
  const files = rulesets();
  assert(files.length >= 20, 'the shipped rulesets and the examples are found');
  for (const [file, text] of files) {
    const counts = checkFile(grammar, file, text);
    for (const k of Object.keys(total)) total[k] += counts[k];
  }
  for (const [k, v] of Object.entries(total)) assert(v > 20, `the rulesets have ${k}s to check (${v})`);
  console.log(
    `grammar: ${files.length} rulesets and examples, ${checked} checks passed ` +
      `(${total.keyword} keywords, ${total.comment} comment lines, ${total.string} strings, ` +
      `${total.number} numbers, ${total.dice} dice, ${total.name} declared names)`,
  );
})().catch((err) => {
  console.error(err.message || err);
  process.exit(1);
});
