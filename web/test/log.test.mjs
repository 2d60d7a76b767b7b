// The playground's explained log against entries as the engine's typed log writes them: each die says
// what happened to it, and a re-rolled check shows the roll it set aside, as the terminal's log does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describe } from '../src/log.js';

const span = { start: 0, end: 1 };
const text = (e) => describe(e).map(([t]) => t);

test('each die says what happened to it', () => {
  const pool = {
    notation: '3d6r1min2!',
    sides: 6,
    value: 13,
    dice: [
      { face: 5, kept: true, rerolled: [1] },
      { face: 2, kept: true, raised: 1 },
      { face: 6, kept: true },
      { face: 2, kept: false, exploded: true },
      { face: 4, kept: true, from: 'Veteran' },
    ],
  };
  const lines = text({ type: 'check', check: 'morale', inputs: [], pool, modifiers: [], total: 13, outcome: 'steady', span, outcome_span: span });
  assert.equal(lines[1], '  dice 3d6r1min2!: 5 (rerolled 1), 2 (raised from 1), 6, 2 (exploded) dropped, 4 (Veteran) = 13');
});

test('a re-rolled check shows the roll it set aside first', () => {
  const pool = (face) => ({ notation: 'd6', sides: 6, value: face, dice: [{ face, kept: true }] });
  const lines = text({
    type: 'check', check: 'rout', subject: 'alpha', inputs: [], pool: pool(5), modifiers: [], total: 5,
    outcome: 'holds', span, outcome_span: span,
    rerolled: [{ pool: pool(1), total: 1, outcome: 'routs' }],
  });
  assert.deepEqual(lines.slice(0, 3), [
    'alpha rolls check rout()',
    '  dice d6: 1 = 1, total 1: routs, so rolled again',
    '  dice d6: 5 = 5',
  ]);
});
