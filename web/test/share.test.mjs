// The rules in a link: they come back as they went in, and a hostile link that unpacks to more than
// any ruleset is refused before it fills the page's memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encode, decode, MAX_UNPACKED } from '../src/share.js';

test('a link carries the rules and their scripts back as they were', async () => {
  const files = { 'r.mettle': 'kind unit { spi: 0..6 = 3 }\n// é ✓\n', 'x.rhai': 'fn f() { 1 }' };
  const fragment = await encode(files);
  assert.ok(fragment.startsWith('code='));
  assert.deepEqual(await decode(`#${fragment}`), files);
  assert.equal(await decode('#nothing'), null);
});

test('a link that unpacks to more than any ruleset is refused', async () => {
  // About 40 MB of one letter packs into a few tens of kilobytes.
  const fragment = await encode({ 'big.mettle': 'a'.repeat(40 * 1024 * 1024) });
  assert.ok(fragment.length < 200_000, `${fragment.length}`);
  await assert.rejects(decode(fragment), new RegExp(`more than ${MAX_UNPACKED / (1024 * 1024)} MB`));
});

test('a damaged link is an error, not rules', async () => {
  await assert.rejects(decode('#code=AAAA'));
  const notFiles = await encode(['a list']);
  await assert.rejects(decode(notFiles), /does not hold a ruleset/);
});
