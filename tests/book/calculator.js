// calculator.js BOOK_DIR CALCULATOR: the calculator in the pages (web/calc.js and the
// WebAssembly module) against the command-line calculator, in headless Chromium.
//
// - every live expression of chapters 1-5: its "edit" button, then the expression typed into the
//   editor that opens and run with Enter; the page must show, character for character, the line
//   that CALCULATOR prints for it (and, for a layout block, the result the book recorded), and for
//   a rank-2 layout the grid of `CALCULATOR --plot` in the figures' colours;
// - hostile input typed into calculator.html (and into a chapter's editor): the same error line
//   as CALCULATOR, the page still working after it; raw non-UTF-8 bytes through the module;
// - calculator.html's link and history: a link with the expression opens the same result.
// CALC_CHAPTERS (a regular expression, default ^0[1-5]_) picks the chapters.
// Prints one "ok"/"not ok" line per check. A book built without the module says SKIP, except
// under CI (CI=true), where the module must be there.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { pathToFileURL } = require('url');
const cdp = require('../../mk/cdp');

const bookDir = path.resolve(process.argv[2] || 'build/book');
const calc = process.argv[3] || 'build/bin/layout';
const chapters = new RegExp(process.env.CALC_CHAPTERS || '^0[1-5]_');
const browser = cdp.launch(600000);
const lines = [];
const ok = (good, what, detail = []) => {
  lines.push((good ? 'ok - ' : 'not ok - ') + what);
  if (!good) detail.forEach(d => lines.push('# ' + String(d).slice(0, 300)));
  return good;
};

// what the command line prints for these bytes (one line on standard input)
function cli(bytes, args = []) {
  const input = Buffer.concat([Buffer.from(bytes), Buffer.from('\n')]);
  try {
    return execFileSync(calc, args, { input, stdio: ['pipe', 'pipe', 'ignore'], maxBuffer: 1 << 26 }).toString('utf8');
  } catch (e) {
    return e.stdout.toString('utf8');
  }
}
const firstLine = s => s.split('\n')[0];

// the cells of `layout --plot` for an expression, or null
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'calc-plot-'));
function plotCells(expr) {
  const f = path.join(tmp, 'plot');
  fs.rmSync(f, { force: true });
  try {
    execFileSync(calc, ['--plot', f, '--', expr], { stdio: 'ignore' });
  } catch (e) { return null; }
  const text = fs.readFileSync(f, 'utf8');
  const dims = /# rows (\d+) cols (\d+)/.exec(text);
  if (!dims || dims[1] * dims[2] > 4096) return null;
  return { rows: +dims[1], cols: +dims[2], values: text.split('\n').filter(l => /^\d/.test(l)).map(l => l.split(' ')[2]) };
}

// 20 hostile inputs: each must give the command line's error line, the page still working
const hostile = [
  ['an empty line', ''],
  ['only spaces', '    '],
  ['unbalanced parentheses', 'size((4,6):(1,4)'],
  ['a closing parenthesis', ')'],
  ['an unknown operation', 'frobnicate((4,6):(1,4))'],
  ['a wrong number of arguments', 'composition((4,6):(1,4))'],
  ['too many arguments', 'size(1,2,3,4,5,6,7)'],
  ['an integer past 64 bits', 'size((99999999999999999999999,4):(1,4))'],
  ['a 64-bit overflow', 'size((4611686018427387904,4):(1,4611686018427387904))'],
  ['a negative shape', 'size((-4,6):(1,4))'],
  ['text after the expression', 'size(4:1) size(4:1)'],
  ['a non-injective complement', 'complement((_2,_2):(_1,_1), 8)'],
  ['an inadmissible composition', 'composition((_3,_2):(_1,_5), _2:_4)'],
  ['a NUL byte', 'size(4:1)\u0000garbage'],
  ['non-ASCII text and a lone surrogate', 'size(\u00e9\u00ff(4):(1))\ud800'],
  ['nesting past capacity', '('.repeat(300) + '1' + ')'.repeat(300)],
  ['a thousand modes', 'size((' + Array(1000).fill(1).join(',') + '):(' + Array(1000).fill(1).join(',') + '))'],
  ['a line of a megabyte', '('.repeat(1 << 20)],
  ['calls nested too deeply', 'size(' + 'size('.repeat(20)],
  ['a result past the capacity of a value', 'make_layout((' + Array(63).fill('_1').join(',') + '))'],
];

let sessionId;
const js = expr => browser.eval(expr, sessionId);
const sleep = ms => new Promise(res => setTimeout(res, ms));

// type text into the focused field, replacing what it holds, and press Enter
async function type(text) {
  await js('document.activeElement.select(), true');
  await browser.send('Input.insertText', { text }, sessionId);
  for (const type of ['keyDown', 'keyUp'])
    await browser.send('Input.dispatchKeyEvent', { type, key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' }, sessionId);
}

// wait for the output element (a CSS selector) to show a finished run; returns what it shows
async function result(sel) {
  for (let i = 0; i < 500; i++) {
    const r = await js(`(() => {
      const out = document.querySelector(${JSON.stringify(sel)});
      if (!out || out.dataset.state !== 'done') return null;
      const cells = [...out.querySelectorAll('table.calc-grid tr')].slice(1).map(tr => [...tr.querySelectorAll('td')]);
      return { line: out.querySelector('.calc-result code').textContent,
               rows: cells.length, cols: cells.length ? cells[0].length : 0,
               values: cells.flat().map(td => td.textContent),
               colours: cells.flat().map(td => getComputedStyle(td).backgroundColor),
               field: document.activeElement && document.activeElement.value };
    })()`);
    if (r) return r;
    await sleep(10);
  }
  return { line: '(no result shown)', rows: 0, cols: 0, values: [], colours: [] };
}
const markRunning = sel => js(`document.querySelector(${JSON.stringify(sel)}).dataset.state = 'stale', true`);

let palette;
const rgb = hex => `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;

// compare what the page shows for the field's text with the command line; returns a problem or null
function judge(shown, typed) {
  const want = firstLine(cli(Buffer.from(typed, 'utf8')));
  if (shown.line !== want) return [`page: ${shown.line}`, `layout: ${want}`];
  const cells = want.startsWith('error:') ? null : plotCells(typed);
  if (!cells) return shown.rows ? [`the page draws a grid that layout --plot does not give`] : null;
  if (shown.rows !== cells.rows || shown.cols !== cells.cols || shown.values.join() !== cells.values.join())
    return [`grid ${shown.rows}x${shown.cols} in the page, ${cells.rows}x${cells.cols} from layout --plot, or other values`];
  const bad = cells.values.findIndex((v, i) => shown.colours[i] !== rgb(palette[((Number(v) % palette.length) + palette.length) % palette.length]));
  if (bad >= 0) return [`cell ${bad} (value ${cells.values[bad]}) has colour ${shown.colours[bad]}`];
  return null;
}

async function chapter(page) {
  await browser.open(pathToFileURL(path.join(bookDir, page)).href, sessionId);
  await js('new Promise(res => { const w = () => document.documentElement.classList.contains("calc-ready") ? res() : setTimeout(w, 10); w(); })');
  const n = await js('document.querySelectorAll(".live .live-expr").length');
  const problems = [];
  for (let i = 0; i < n; i++) {
    const row = await js(`(() => {
      const row = document.querySelectorAll('.live .live-expr')[${i}];
      const rec = row.nextElementSibling && row.nextElementSibling.matches('.live-result') ? row.nextElementSibling.querySelector('code').textContent : null;
      row.querySelector('button.calc-edit').click();
      return { expr: row.querySelector('code').textContent, recorded: rec };
    })()`);
    const opened = await result('.calc-out');
    let p = judge(opened, row.expr);
    if (!p && row.recorded !== null && opened.line !== row.recorded) p = [`page: ${opened.line}`, `book: ${row.recorded}`];
    if (!p) {
      await markRunning('.calc-out');
      await type(row.expr);
      const typed = await result('.calc-out');
      p = typed.field !== row.expr ? [`the editor holds ${typed.field}`] : judge(typed, row.expr);
    }
    if (p) problems.push(`${row.expr}:`, ...p);
    await js(`document.querySelector('.calc-back').click(), true`);
  }
  ok(n > 0 && problems.length === 0, `${page}: the ${n} live expressions, edited and typed, show what ${path.basename(calc)} prints`, problems);
}

async function main() {
  ({ sessionId } = await browser.page());
  await browser.open(pathToFileURL(path.join(bookDir, 'calculator.html')).href, sessionId);
  await sleep(100);
  const available = await js('!!(window.LayoutCalculator && window.LayoutCalculator.available)');
  if (!available) {
    if (process.env.CI === 'true') ok(false, 'the book was built without the in-page calculator (no WebAssembly toolchain), on CI');
    else lines.push('ok - the in-page calculator # SKIP the book was built without it (no WebAssembly toolchain)');
    return browser.finish(lines);
  }
  palette = await js('window.LAYOUT_PALETTE');

  for (const page of fs.readdirSync(bookDir).filter(f => chapters.test(f) && f.endsWith('.html')).sort()) await chapter(page);

  // hostile input, typed into calculator.html
  await browser.open(pathToFileURL(path.join(bookDir, 'calculator.html')).href, sessionId);
  const problems = [];
  for (const [what, text] of hostile) {
    await markRunning('#calc-out');
    await js('document.getElementById("calc-input").focus(), true');
    await type(text);
    const shown = await result('#calc-out');
    const p = judge(shown, shown.field);
    if (p || !shown.line.startsWith('error:')) problems.push(what + ':', ...(p || [`no error: ${shown.line}`]));
  }
  ok(problems.length === 0, `calculator.html: ${hostile.length} hostile inputs typed in show the command line's error lines`, problems);
  const after = await js(`LayoutCalculator.evaluate('size((4,6):(6,_1))').then(r => r.line)`);
  ok(after === '24', 'the calculator still works after them', [after]);
  const raw = [0x73, 0x69, 0x7a, 0x65, 0x28, 0xff, 0xfe, 0x80, 0x29];
  const rawLine = await js(`LayoutCalculator.evaluate(new Uint8Array(${JSON.stringify(raw)})).then(r => r.line)`);
  ok(rawLine === firstLine(cli(raw)), 'non-UTF-8 bytes through the module give the command line\'s error line', [rawLine, firstLine(cli(raw))]);

  // a link with the expression, and the history
  const expr = 'zipped_divide((4,6):(6,_1), (_2,_2))';
  await js(`document.getElementById("calc-input").focus(), true`);
  await type(expr);
  await result('#calc-out');
  const link = await js('document.getElementById("calc-link").href');
  await browser.open(link, sessionId);
  const linked = await result('#calc-out');
  const hist = await js('[...document.querySelectorAll("#calc-history a")].map(a => a.textContent)');
  ok(linked.line === firstLine(cli(Buffer.from(expr))) && linked.field === expr && link.includes('?e='),
    'calculator.html: the link of a result opens the same result', [link, linked.line]);
  ok(hist[0] === expr && hist.includes('size(4:1) size(4:1)'), 'calculator.html: the history holds the expressions run, the latest first', [JSON.stringify(hist.slice(0, 3))]);
  const examples = await js(`Promise.all([...document.querySelectorAll('.calc-examples a')].map(a =>
    LayoutCalculator.evaluate(a.textContent).then(r => a.textContent + ' -> ' + r.line)))`);
  const failing = examples.filter(e => / -> error:/.test(e));
  ok(examples.length > 0 && failing.length === 0, `calculator.html: its ${examples.length} examples run without an error`, failing);
  browser.finish(lines);
}
main().catch(e => browser.finish([...lines, 'not ok - calculator check: ' + e.message, ...browser.tail()]))
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
