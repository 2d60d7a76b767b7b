// The editor's highlighting, run on every shipped ruleset outside the browser: it reads the VS Code
// grammar, always moves on, and gives declarations, keywords, numbers, dice and comments their colours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { web, rulesets } from '../scripts/paths.mjs';

const bundle = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mettle-hl-')), 'highlight.mjs');
await esbuild.build({
  entryPoints: [path.join(web, 'src', 'highlight.js')], bundle: true, format: 'esm', platform: 'node',
  outfile: bundle, logLevel: 'warning',
});
const { parsers } = await import(bundle);
const { StringStream } = await import('@codemirror/language');

/** Every token of `text` as [text, token name], line by line. */
function tokens(text, parser = parsers.mettle) {
  const state = parser.startState();
  const out = [];
  for (const line of text.split('\n')) {
    if (!line) { parser.blankLine(state); continue; }
    const stream = new StringStream(line, 2, 2);
    while (!stream.eol()) {
      const start = stream.pos;
      const tok = parser.token(stream, state);
      assert.ok(stream.pos > start, `the highlighter did not move on in: ${line}`);
      out.push([line.slice(start, stream.pos), tok]);
    }
  }
  return out;
}
const tokenOf = (text, word) => tokens(text).find(([t]) => t === word)?.[1];

test('every shipped ruleset and script is highlighted to its end', () => {
  const files = fs.readdirSync(rulesets).filter((f) => /\.(mettle|rhai)$/.test(f));
  assert.ok(files.length >= 5);
  for (const f of files) {
    const text = fs.readFileSync(path.join(rulesets, f), 'utf8');
    const toks = tokens(text, f.endsWith('.rhai') ? parsers.rhai : parsers.mettle);
    assert.equal(toks.map(([t]) => t).join(''), text.split('\n').join(''), f);
  }
});

test('declarations, keywords, numbers, dice, strings and comments get their colours', () => {
  const src = [
    '/// A unit.',
    'kind unit { spi: 0..6 = 3  morale: steady | shaken = steady }',
    'check morale for unit {',
    '  roll 2d6kh1 as base',
    '  modifier "Spirit" +spi // a comment',
    '  outcome steady when total >= 7 and not unit.shaken',
    '  otherwise shaken',
    '}',
  ].join('\n');
  assert.deepEqual([...new Set(tokens('/// A unit.').map(([, t]) => t))], ['docComment']);
  assert.equal(tokenOf(src, 'kind'), 'definitionKeyword');
  assert.equal(tokenOf(src, 'unit'), 'typeName.definition');
  assert.equal(tokenOf(src, 'check'), 'definitionKeyword');
  assert.equal(tokenOf(src, '2d6kh1'), 'number');
  assert.equal(tokenOf(src, '"'), 'string');
  assert.equal(tokenOf(src, 'Spirit'), 'string');
  assert.equal(tokenOf(src, ' a comment'), 'comment');
  assert.equal(tokenOf(src, 'when'), 'controlKeyword');
  assert.equal(tokenOf(src, 'and'), 'operatorKeyword');
  assert.equal(tokenOf(src, '>='), 'operator');
  assert.equal(tokenOf('outcome steady when yes', 'steady'), 'atom');
  assert.equal(tokenOf('outcome steady when yes', 'yes'), 'bool');
});

test('an unclosed string ends with its line', () => {
  const toks = tokens('note "open\nset x to 1');
  assert.deepEqual(toks.find(([t]) => t === 'set'), ['set', 'keyword']);
});
