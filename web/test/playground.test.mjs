// The playground in a real browser (Debian's chromium, driven by playwright-core): the page is
// built, served on localhost, and used as a homebrewer would. Screenshots of each panel go to
// web/test-output/; timings are printed. Set PLAYGROUND_NO_BUILD=1 to test the last build, or
// PLAYGROUND_URL to test a page served elsewhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { web, dist } from '../scripts/paths.mjs';
import { serve } from '../scripts/serve.mjs';

const out = path.join(web, 'test-output');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
let server, browser, origin;
const foreign = []; // requests for anything but the page's own files

before(async () => {
  const external = process.env.PLAYGROUND_URL;
  if (!process.env.PLAYGROUND_NO_BUILD && !external) execFileSync('npm', ['run', 'build'], { cwd: web, stdio: 'inherit' });
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  if (external) {
    origin = new URL(external).origin;
  } else {
    server = await serve(dist, 0);
    origin = `http://127.0.0.1:${server.address().port}`;
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function open(url, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:') && !u.startsWith('about:')) foreign.push(u);
  });
  await page.goto(url);
  return { page, errors };
}

const shot = (page, name) => page.screenshot({ path: path.join(out, `${name}.png`) });
const timing = (page) => page.evaluate(() => structuredClone(window.mettleTimings));
const problems = (page) => page.locator('#problems-title').textContent();

async function tab(page, name) {
  await page.getByRole('tab', { name }).click();
  await page.locator(`[role=tabpanel][aria-labelledby=tab-${name.toLowerCase()}]`).waitFor({ state: 'visible' });
}

// What the page's editor holds.
const editorText = (page) => page.evaluate(() => window.mettleText());

// On a failure, the page as it was goes to test-output/failure-*.png.
async function showingFailure(page, name, body) {
  try {
    await body();
  } catch (e) {
    await page.screenshot({ path: path.join(out, `failure-${name}.png`) }).catch(() => {});
    throw e;
  }
}

test('the playground, used from start to end', async () => {
  const { page, errors } = await open(`${origin}/`);
  await showingFailure(page, 'main', () => useEverything(page, errors));
});

async function useEverything(page, errors) {

  // First diagnostics: the default example (Infinite Frontiers) loads and is checked.
  await page.waitForFunction(() => window.mettleTimings?.firstDiagnostics != null, null, { timeout: 15000 });
  const first = (await timing(page)).firstDiagnostics;
  console.log(`timing: first diagnostics ${first.toFixed(0)} ms after the page started`);
  assert.ok(first < 10000, `first diagnostics took ${first} ms`);
  assert.equal(await problems(page), 'Problems: none');
  await page.locator('#outline h2').filter({ hasText: 'Infinite Frontiers' }).waitFor();
  await shot(page, '01-outline');

  // Load another example and back: the editor and outline follow.
  const other = await page.locator('#example option', { hasText: 'combat_hq.mettle' }).textContent();
  await page.locator('#example').selectOption({ label: other });
  await page.waitForFunction(() => !document.querySelector('#outline h2')?.textContent.includes('Infinite'));
  await page.locator('#example').selectOption({ label: 'Infinite Frontiers (infinite_frontiers.mettle)' });
  await page.locator('#outline h2').filter({ hasText: 'Infinite Frontiers' }).waitFor();

  // A mistake, typed at the end: an event that does not exist, underlined with its code and help.
  await page.locator('#editor .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\non morale_tset {');
  // The text as typed so far is checked along the way; the last check sees the whole line.
  await page.locator('#problems .problem', { hasText: 'unknown_event' }).waitFor({ timeout: 5000 });
  await page.locator('#editor .cm-lintRange-error').first().waitFor({ timeout: 5000 });
  assert.match(await problems(page), /1 error/);
  const problem = page.locator('#problems .problem').first();
  assert.match(await problem.textContent(), /mettle::resolve::unknown_event/);
  assert.match(await problem.textContent(), /there is no event called `morale_tset`/);
  assert.match(await problem.textContent(), /help: did you mean `morale_test`\?/);
  await page.locator('#editor .cm-lintRange-error').first().hover();
  const tooltip = page.locator('.cm-tooltip-lint');
  await tooltip.waitFor({ timeout: 5000 });
  assert.match(await tooltip.textContent(), /mettle::resolve::unknown_event/);
  assert.match(await tooltip.textContent(), /did you mean `morale_test`/);
  await shot(page, '02-diagnostic');

  // Fixed: the typo corrected, no problem left.
  await page.keyboard.press('End');
  for (let i = 0; i < 'tset {}'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('test {');
  await page.waitForFunction(() => document.querySelector('#problems-title').textContent === 'Problems: none');
  assert.match(await editorText(page), /on morale_test \{\}$/);

  // Odds: the morale check at SPI 3 is broken 1 time in 6.
  await tab(page, 'Odds');
  await page.locator('#odds-check').selectOption('morale');
  const odds = page.locator('#odds');
  const spi = odds.locator('fieldset').first().locator('[name=spi]');
  const before = await odds.getAttribute('data-ready');
  const t0 = Date.now();
  await spi.fill('3');
  await page.waitForFunction((b) => document.querySelector('#odds').dataset.ready !== b
    && document.querySelector('#odds .question')?.textContent.includes('spi = 3'), before);
  console.log(`timing: odds after a change ${Date.now() - t0} ms (page and worker round trip, measured by the test)`);
  const broken = odds.locator('.odds-table tr[data-outcome=broken]');
  assert.equal(await broken.locator('.exact').textContent(), '1/6');
  assert.equal(await odds.locator('.odds-table tr[data-outcome=steady] .exact').textContent(), '1/2');
  assert.equal(await odds.locator('.odds-table tr[data-outcome=shaken] .exact').textContent(), '1/3');
  assert.equal(await odds.locator('svg.chart').count(), 1);
  await shot(page, '03-odds');

  // Every shipped check, each from a change of one input: the worker's time is printed.
  const checks = await page.locator('#odds-check option').allTextContents();
  for (const c of checks) {
    await page.locator('#odds-check').selectOption(c);
    await page.waitForFunction((c) => document.querySelector('#odds .question')?.textContent.includes(`check ${c}`), c);
  }
  const oddsTimes = (await timing(page)).odds;
  console.log(`timing: odds from a change to the table drawn, in the page: ${oddsTimes.map((o) => `${o.check} ${o.ms.toFixed(0)} ms`).join(', ')}`);

  // A sweep over one input, then two.
  await page.locator('#odds-check').selectOption('morale');
  await page.waitForFunction(() => document.querySelector('#odds .question')?.textContent.includes('check morale'));
  await page.locator('#odds-vary-1').selectOption('spi');
  await odds.locator('.sweep-table').waitFor();
  assert.equal(await odds.locator('.sweep-table tbody tr').count(), 7); // spi 0..6
  await shot(page, '04-odds-sweep');
  await page.locator('#odds-vary-2').selectOption('leadership');
  await odds.locator('table.heat').waitFor();
  assert.equal(await odds.locator('table.heat tbody tr').count(), 7);
  assert.equal(await odds.locator('table.heat tbody tr').first().locator('td').count(), 4); // leadership 0..3
  await shot(page, '05-odds-heat');

  // Scenarios: all pass, and one's log explains itself.
  await tab(page, 'Scenarios');
  const summary = page.locator('#scenarios .summary');
  await summary.filter({ hasText: 'passed' }).waitFor();
  await page.getByRole('button', { name: 'Run all scenarios' }).click();
  await summary.filter({ hasText: 'passed' }).waitFor();
  const [, passed, failed] = (await summary.textContent()).match(/(\d+) passed, (\d+) failed/);
  assert.equal(Number(failed), 0);
  assert.equal(Number(passed), await page.locator('#scenarios details.scenario').count());
  assert.ok(Number(passed) >= 10);
  await page.locator('#scenarios details.scenario summary').nth(1).click();
  const log = page.locator('#scenarios details.scenario[open] .log');
  await log.waitFor();
  assert.match(await log.textContent(), /rolls check morale/);
  assert.match(await log.textContent(), /expect .*: ok/);
  await shot(page, '06-scenarios');

  // Play: a side and a unit, then two events; the log says what the rules did.
  await tab(page, 'Play');
  await page.getByRole('button', { name: 'New game' }).click();
  await page.locator('#play .play-make').waitFor();
  const make = async (kind, name, attrs = {}) => {
    await page.locator('#make-kind').selectOption(kind);
    await page.locator('#make-name').fill(name);
    await page.locator('#play .play-make details').evaluate((d) => { d.open = true; });
    for (const [k, v] of Object.entries(attrs)) {
      const control = page.locator(`#play .play-make [name=${k}]`);
      if (await control.evaluate((e) => e.tagName) === 'SELECT') await control.selectOption(v); else await control.fill(v);
    }
    await page.getByRole('button', { name: 'Put it on the table' }).click();
    await page.locator('#play .entity-table th', { hasText: name }).waitFor();
  };
  await make('side', 'red');
  await make('unit', 'ranger', { side: 'red', spi: '2' });
  const trigger = async (event, facts = {}, dice = '') => {
    await page.locator('#event-name').selectOption(event);
    for (const [k, v] of Object.entries(facts)) {
      const control = page.locator(`#play .play-event [name=${k}]`);
      if (await control.evaluate((e) => e.tagName) === 'SELECT') await control.selectOption(v); else await control.fill(v);
    }
    if (dice) await page.locator('#event-dice').fill(dice);
    await page.getByRole('button', { name: 'Trigger' }).click();
  };
  await trigger('turn_start');
  await page.locator('#play .play-log').filter({ hasText: 'event turn_start' }).waitFor();
  await trigger('engaged', { unit: 'ranger', enemies: '3' }, '2');
  const playLog = page.locator('#play .play-log');
  // The rules ask whether the unit spends an AP in its morale check: answer with the default.
  const question = page.locator('#play .question-box');
  await question.waitFor();
  assert.match(await question.textContent(), /Spend the unit's AP in this morale check\?/);
  await shot(page, '07-play-question');
  await question.locator('button.primary').click();
  await playLog.filter({ hasText: 'event engaged' }).waitFor();
  await playLog.filter({ hasText: 'rolls check morale' }).waitFor();
  assert.match(await playLog.textContent(), /dice d6: 2 = 2/);
  assert.match(await playLog.textContent(), /ranger\.morale: steady -> shaken/);
  assert.match(await page.locator('#play .entity-table').textContent(), /morale shaken/);
  await shot(page, '08-play');

  // Card: the reference card, in its frame, with the morale check.
  await tab(page, 'Card');
  await page.waitForFunction(() => document.querySelector('#card iframe')?.contentDocument?.body?.textContent.includes('morale'));
  const cardTitle = await page.locator('#card iframe').evaluate((f) => f.contentDocument.title);
  assert.match(cardTitle, /Infinite Frontiers/);
  await shot(page, '09-card');

  // Share: the edited rules travel in the link, and a fresh page opens them.
  await page.locator('#editor .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n// shared by the browser test');
  await page.getByRole('button', { name: 'Copy share link' }).click();
  await page.waitForFunction(() => location.hash.startsWith('#code='));
  const link = await page.evaluate(() => location.href);
  const clipboard = await page.evaluate(() => navigator.clipboard.readText()).catch(() => link);
  assert.equal(clipboard, link);
  const shared = await open(link);
  await shared.page.waitForFunction(() => window.mettleTimings?.firstDiagnostics != null);
  assert.match(await editorText(shared.page), /\/\/ shared by the browser test$/);
  assert.equal(await shared.page.locator('#example').inputValue(), '');
  assert.equal(await problems(shared.page), 'Problems: none');
  await shared.page.reload();
  await shared.page.waitForFunction(() => window.mettleTimings?.firstDiagnostics != null);
  assert.match(await editorText(shared.page), /\/\/ shared by the browser test$/);
  await shot(shared.page, '10-shared-link');

  assert.deepEqual(errors, []);
  assert.deepEqual(shared.errors, []);
  await page.context().close();
  await shared.page.context().close();
}

test('the odds of every shipped check follow a change of its inputs', async () => {
  const { page, errors } = await open(`${origin}/`);
  await showingFailure(page, 'every-check', async () => {
    await page.waitForFunction(() => window.mettleTimings?.firstDiagnostics != null);
    await tab(page, 'Odds');
    const labels = await page.locator('#example option').allTextContents();
    const times = [];
    for (const label of labels.filter((l) => l.endsWith('.mettle)'))) {
      await page.locator('#example').selectOption({ label });
      const title = label.replace(/ \([^)]*\)$/, '');
      await page.locator('#outline h2', { hasText: title }).waitFor({ state: 'attached' });
      await page.waitForFunction(() => document.querySelector('#odds').dataset.pending === '');
      const checks = await page.locator('#odds-check option').allTextContents();
      for (const c of checks) {
        await page.locator('#odds-check').selectOption(c);
        await page.waitForFunction((c) => {
          const d = document.querySelector('#odds').dataset;
          return d.check === c && d.pending === '';
        }, c).catch(async (e) => {
          throw new Error(`${label} ${c}: ${JSON.stringify(await page.locator('#odds').evaluate((el) => ({ ...el.dataset })))} ${e.message}`);
        });
        // The change: the first input a step on (a flag turned over, the next state), made as a
        // person makes it, with the events a browser sends.
        const ready = await page.locator('#odds').getAttribute('data-ready');
        const t0 = Date.now();
        const changed = await page.evaluate(() => {
          const el = document.querySelector('#odds fieldset input:not([disabled]):not([type=text]), #odds fieldset select');
          if (!el || el.closest('.sweep')) return false;
          if (el.type === 'checkbox') el.checked = !el.checked;
          else if (el.tagName === 'SELECT') el.selectedIndex = (el.selectedIndex + 1) % el.options.length;
          else {
            const now = el.value === '' ? Number(el.min || 0) : Number(el.value);
            el.value = String(el.max !== '' && now + 1 > Number(el.max) ? now - 1 : now + 1);
          }
          el.dispatchEvent(new Event(el.type === 'checkbox' || el.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
          return true;
        });
        if (!changed) continue;
        await page.waitForFunction((r) => document.querySelector('#odds').dataset.ready !== r, ready);
        const code = await page.locator('#odds .odds-out .error').getAttribute('data-code', { timeout: 100 }).catch(() => null);
        assert.equal(code, null, `${label} ${c}: ${await page.locator('#odds .odds-out').textContent()}`);
        times.push([`${label.match(/\((.*)\)/)[1]} ${c}`, Date.now() - t0]);
      }
    }
    const worker = (await timing(page)).odds.map((o) => o.ms);
    console.log(`timing: odds after a change, per shipped check (test's view): ${times.map(([n, ms]) => `${n} ${ms} ms`).join(', ')}`);
    console.log(`timing: odds from a change to the table drawn, in the page, every shipped check: median ${worker.sort((a, b) => a - b)[worker.length >> 1].toFixed(1)} ms, worst ${Math.max(...worker).toFixed(1)} ms`);
    assert.ok(times.length >= 6, `odds measured for ${times.length} checks`);
    assert.ok(Math.max(...times.map(([, ms]) => ms)) < 5000);
  });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("a ladder's rungs are a menu, and the odds at each are the command's", async () => {
  const { page, errors } = await open(`${origin}/`);
  await showingFailure(page, 'ladder', async () => {
    await page.waitForFunction(() => window.mettleTimings?.firstDiagnostics != null);
    await tab(page, 'Odds');
    await page.locator('#example').selectOption({ label: 'Traveller Morale (traveller_morale.mettle)' });
    await page.locator('#outline h2', { hasText: 'Traveller Morale' }).waitFor({ state: 'attached' });
    await page.locator('#odds-check').selectOption('morale');
    const odds = page.locator('#odds');
    // `difficulty` is a ladder: its rungs, lowest first, as the outline lists them.
    const difficulty = odds.locator('fieldset').first().locator('select[name=difficulty]');
    assert.deepEqual(await difficulty.locator('option').allTextContents(), ['simple', 'routine', 'difficult', 'formidable', 'impossible']);
    await difficulty.selectOption('routine');
    await odds.locator('fieldset').first().locator('[name=dm]').fill('0');
    await page.waitForFunction(() => /difficulty = routine, dm = 0/.test(document.querySelector('#odds .question')?.textContent ?? ''));
    // `mettle odds rulesets/traveller_morale.mettle morale --set difficulty=routine --set dm=0`
    // passes 7/12 (2d6 reaching 7) and fails 5/12.
    assert.equal(await odds.locator('.odds-table tr[data-outcome=pass] .exact').textContent(), '7/12');
    assert.equal(await odds.locator('.odds-table tr[data-outcome=fail] .exact').textContent(), '5/12');
    // Swept over its rungs (`--sweep difficulty --set dm=0`): a row a rung, in the ladder's order.
    await page.locator('#odds-vary-1').selectOption('difficulty');
    await odds.locator('.sweep-table').waitFor();
    const rows = odds.locator('.sweep-table tbody tr');
    assert.deepEqual(await rows.locator('th').allTextContents(), ['simple', 'routine', 'difficult', 'formidable', 'impossible']);
    assert.deepEqual(await rows.nth(0).locator('td').evaluateAll((tds) => tds.map((td) => td.title)), ['35/36', '1/36']);
    assert.deepEqual(await rows.nth(2).locator('td').evaluateAll((tds) => tds.map((td) => td.title)), ['1/12', '11/12']);
    assert.match(await odds.locator('.question').first().textContent(), /sweeping difficulty/);
    await shot(page, '13-ladder-sweep');
  });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('typing stays smooth on the largest shipped ruleset', async () => {
  const { page, errors } = await open(`${origin}/`);
  await page.waitForFunction(() => window.mettleTimings?.firstDiagnostics != null);
  // The largest shipped ruleset, by size.
  const largest = await page.evaluate(() => [...document.querySelectorAll('#example option')].map((o) => o.textContent));
  const sizes = fs.readdirSync(path.join(web, '..', 'rulesets')).filter((f) => f.endsWith('.mettle'))
    .map((f) => [f, fs.statSync(path.join(web, '..', 'rulesets', f)).size]).sort((a, b) => b[1] - a[1]);
  const label = largest.find((l) => l.includes(`(${sizes[0][0]})`));
  await page.locator('#example').selectOption({ label });
  await page.waitForFunction((n) => document.querySelector('#status').textContent.startsWith('Loaded'), null);
  await page.locator('#editor .cm-content').click();
  await page.keyboard.press('Control+Home');
  // Long frames while typing, watched from inside the page.
  await page.evaluate(() => {
    window.longFrames = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longFrames.push(e.duration); })
      .observe({ type: 'longtask', buffered: false });
  });
  const text = '// a comment typed key by key to see how the editor keeps up\n';
  const t0 = Date.now();
  for (const ch of text) await page.keyboard.type(ch);
  const perKey = (Date.now() - t0) / text.length;
  await page.waitForFunction(() => document.querySelector('#problems-title').textContent === 'Problems: none');
  const long = await page.evaluate(() => window.longFrames);
  const loads = (await timing(page)).loads;
  const worst = Math.max(0, ...long);
  console.log(`timing: typing on ${sizes[0][0]}: ${perKey.toFixed(1)} ms a key (the test's own round trip included); `
    + `${long.length} long tasks on the page (worst ${worst.toFixed(0)} ms); `
    + `a load in the worker: median ${loads.sort((a, b) => a - b)[loads.length >> 1].toFixed(0)} ms`);
  assert.ok(perKey < 200, `typing took ${perKey} ms a key`);
  assert.match(await editorText(page), /^\/\/ a comment typed key by key/);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a narrow window stacks the panes and keeps everything reachable', async () => {
  const { page, errors } = await open(`${origin}/`, { width: 420, height: 860 });
  await page.waitForFunction(() => window.mettleTimings?.firstDiagnostics != null);
  await tab(page, 'Odds');
  await page.locator('#odds .odds-table').waitFor();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 420, `the page is ${width} px wide in a 420 px window`);
  await page.screenshot({ path: path.join(out, '11-narrow.png'), fullPage: true });
  // Every control a person can reach has a name a screen reader reads out.
  for (const name of ['Outline', 'Odds', 'Scenarios', 'Play', 'Card']) {
    await tab(page, name);
    await page.waitForTimeout(300);
    const unnamed = await page.evaluate(() => [...document.querySelectorAll('input, select, button, textarea')]
      .filter((el) => el.offsetParent !== null && el.type !== 'hidden')
      .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')
        || (el.tagName === 'BUTTON' && el.textContent.trim())))
      .map((el) => el.outerHTML.slice(0, 120)));
    assert.deepEqual(unnamed, [], `controls with no name on the ${name} tab`);
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

// A link to `files`, made as the page makes them: JSON, deflated, base64url after `#code=`.
function linkTo(files) {
  const packed = zlib.deflateRawSync(Buffer.from(JSON.stringify(files)));
  return `${origin}/#code=${packed.toString('base64url')}`;
}

test('Stop ends a runaway computation and the page goes on', async () => {
  // A sweep over 60 × 60 rows of a 40-die roll: far longer than anyone waits.
  const slow = [
    'ruleset "Slow"',
    'check slow {',
    '  input n: 1..60 = 40',
    '  input m: 1..60 = 40',
    '  roll (n)d20kh20',
    '  outcome high when total >= 300',
    '  otherwise low',
    '}',
    '',
  ].join('\n');
  const { page, errors } = await open(linkTo({ 'slow.mettle': slow }));
  await showingFailure(page, 'stop', async () => {
    await page.waitForFunction(() => window.mettleTimings?.firstDiagnostics != null);
    assert.equal(await problems(page), 'Problems: none');
    await tab(page, 'Odds');
    await page.locator('#odds .odds-table').waitFor();
    await page.locator('#odds-vary-1').selectOption('n');
    await page.locator('#odds-vary-2').selectOption('m');
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.waitFor({ timeout: 5000 });
    // The page answers while the worker computes: the editor takes keys.
    await page.locator('#editor .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// typed while it works\non nosuch {');
    assert.match(await editorText(page), /typed while it works\non nosuch \{\}$/);
    // The rules are still checked as they are typed: the other worker is free.
    await page.locator('#problems-title', { hasText: '1 error' }).waitFor({ timeout: 5000 });
    assert.ok(await stop.isVisible(), 'the sweep still runs');
    await shot(page, '12-stop');
    await stop.click();
    await page.locator('#status', { hasText: 'Stopped' }).waitFor();
    await stop.waitFor({ state: 'hidden' });
    assert.match(await page.locator('#odds .odds-out').textContent(), /Stopped/);
    // A fresh engine: the next question is answered, on the last rules that loaded.
    await page.locator('#odds-vary-2').selectOption('');
    await page.locator('#odds-vary-1').selectOption('');
    await page.locator('#odds .odds-table').waitFor();
    assert.match(await page.locator('#odds .odds-table').textContent(), /high/);
  });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the page asked for nothing but its own files', () => {
  assert.deepEqual(foreign, []);
});
