// calc.js: the layout calculator inside the book's pages.
//
// layout-wasm.js (made by web/build.sh) sets LAYOUT_WASM, the calculator compiled to WebAssembly
// (lib/ and labs/01_layouts/calc.c, entry point web/calc_wasm.c), as base64 text: pages opened
// from file:// may not fetch a .wasm file. It also sets LAYOUT_PALETTE, the colours of the book's
// figures (figures/layout_grid.gp). Without a WebAssembly toolchain LAYOUT_WASM is null, chapters
// keep their recorded results, and calculator.html says why.
//
// On a chapter page every expression of a live example gets an "edit" button: the reader changes
// the expression and the page shows what build/bin/layout prints for it, and the coloured grid of
// a rank-2 result. calculator.html (#calc-form) is the calculator alone, with a history and a link
// that holds the expression (calculator.html?e=EXPR).
(function () {
  'use strict';
  const wasm64 = window.LAYOUT_WASM;
  const palette = window.LAYOUT_PALETTE || ['#dddddd'];

  // ---- the module --------------------------------------------------------------------------------

  let compiled = null, instance = null;

  // the few WASI calls the C library's stdio may import; none of them is used to print
  function wasiImports(mod) {
    const shims = {
      fd_write: (fd, iovs, n, written) => {
        const mem = new DataView(instance.exports.memory.buffer);
        let total = 0;
        for (let i = 0; i < n; i++) total += mem.getUint32(iovs + 8 * i + 4, true);
        mem.setUint32(written, total, true);
        return 0;
      },
      proc_exit: code => { throw new WebAssembly.RuntimeError('the module exited with status ' + code); },
    };
    const wasi = {};
    for (const imp of WebAssembly.Module.imports(mod)) {
      if (imp.module === 'wasi_snapshot_preview1') wasi[imp.name] = shims[imp.name] || (() => 52); // ENOSYS
    }
    return { wasi_snapshot_preview1: wasi };
  }

  async function start() {
    if (!compiled) {
      const text = atob(wasm64), bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      compiled = await WebAssembly.compile(bytes);
    }
    instance = await WebAssembly.instantiate(compiled, wasiImports(compiled));
    instance.exports._initialize();
  }
  // (a module that cannot start is reported by the first evaluate(), on the page)
  let ready = null;
  const restart = () => { ready = start(); ready.catch(() => {}); };
  if (wasm64) restart();

  // Evaluate one expression (a string, or UTF-8 bytes): { line, grid } where line is what
  // build/bin/layout prints for it and grid, for a small rank-2 layout, { rows, cols, values }.
  async function evaluate(expr) {
    await ready;
    const bytes = typeof expr === 'string' ? new TextEncoder().encode(expr) : expr;
    let text;
    try {
      const x = instance.exports;
      const at = x.calc_web_input(bytes.length);
      if (at === 0) return { line: 'error: out of memory, at column 1', grid: null };
      new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
      const out = x.calc_web_run(bytes.length) >>> 0;
      text = new TextDecoder().decode(new Uint8Array(x.memory.buffer, out, x.calc_web_output_len()));
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      restart();             // a fresh module for the next expression
      return { line: 'the calculator stopped on this input (' + e.message + '); it has been restarted',
               grid: null, crashed: true };
    }
    const lines = text.split('\n');
    let grid = null;
    const dims = /^# rows (\d+) cols (\d+)$/.exec(lines[2] || '');
    if (dims) {
      grid = { rows: +dims[1], cols: +dims[2], values: [] };
      for (const l of lines.slice(3)) {
        const [r, c, v] = l.split(' ');
        if (v !== undefined) grid.values[r * grid.cols + +c] = v;
      }
    }
    return { line: lines[0], grid };
  }

  // ---- drawing -----------------------------------------------------------------------------------

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // colour of a cell: its value, cycled through the figures' palette (as layout_grid.gp does)
  const colour = v => palette[((Number(BigInt(v) % BigInt(palette.length))) + palette.length) % palette.length];

  function gridTable(g) {
    const t = el('table', 'calc-grid');
    const head = t.insertRow();
    head.append(el('th'));
    for (let c = 0; c < g.cols; c++) head.append(el('th', '', String(c)));
    for (let r = 0; r < g.rows; r++) {
      const row = t.insertRow();
      row.append(el('th', '', String(r)));
      for (let c = 0; c < g.cols; c++) {
        const v = g.values[r * g.cols + c];
        const td = el('td', '', v);
        td.style.background = colour(v);
        row.append(td);
      }
    }
    return t;
  }

  // show what the calculator gives for expr in the element out
  // (out.dataset.state: "running", then "done"; only the latest of several runs is shown)
  async function show(out, expr) {
    const turn = out.calcTurn = (out.calcTurn || 0) + 1;
    out.dataset.state = 'running';
    let res;
    try {
      res = await evaluate(expr);
    } catch (e) {            // the module did not compile or start: say so instead of a blank
      res = { line: 'the calculator could not run here (' + e.message + ')', grid: null, crashed: true };
    }
    if (turn !== out.calcTurn) return res;
    const isError = res.crashed || res.line.startsWith('error:');
    const line = el('div', 'live-result calc-result' + (isError ? ' live-error' : ''), '→ ');
    line.append(el('code', '', res.line));
    out.replaceChildren(line);
    if (res.grid) {
      out.append(gridTable(res.grid));
      const view = /^(-?\d+) o /.exec(res.line);          // a view: offset o layout
      if (view) out.append(el('div', 'calc-note', 'each cell: the layout\'s offset, counted from the view\'s start, ' + view[1]));
    } else if (!isError && res.line.includes(':')) {
      out.append(el('div', 'calc-note', 'no grid: the page draws layouts of rank 2 with at most 4096 cells'));
    }
    out.dataset.state = 'done';
    return res;
  }

  function editForm(expr, label) {
    const form = el('form', 'calc-form');
    const input = el('input', 'calc-input');
    Object.assign(input, { type: 'text', value: expr, spellcheck: false, autocomplete: 'off' });
    input.setAttribute('aria-label', label);
    form.append(input, el('button', 'calc-run', 'run'));
    return { form, input };
  }

  // ---- a chapter's live examples -------------------------------------------------------------------

  function editable(row) {
    const expr = row.querySelector('code').textContent;
    const edit = el('button', 'calc-edit', 'edit');
    edit.type = 'button';
    edit.title = 'Change this expression and run it in the page';
    row.append(' ', edit);
    edit.addEventListener('click', () => {
      // what the book recorded for this expression: everything up to the next expression
      const recorded = [];
      for (let e = row.nextElementSibling; e && !e.matches('.live-expr, .live-comment'); e = e.nextElementSibling) recorded.push(e);
      const { form, input } = editForm(expr, 'expression');
      const back = el('button', 'calc-back', 'back to the book');
      back.type = 'button';
      form.append(back);
      const out = el('div', 'calc-out');
      row.hidden = true;
      recorded.forEach(e => { e.hidden = true; });
      row.after(form, out);
      form.addEventListener('submit', ev => { ev.preventDefault(); show(out, input.value); });
      back.addEventListener('click', () => {
        form.remove(); out.remove();
        row.hidden = false;
        recorded.forEach(e => { e.hidden = false; });
        edit.focus();
      });
      show(out, input.value);
      input.focus();
    });
  }

  // ---- calculator.html ---------------------------------------------------------------------------

  const HISTORY_KEY = 'layout-calculator-history', HISTORY_MAX = 50;
  function loadHistory() {
    try { return JSON.parse(localStorage.getItem(HISTORY_KEY)) || []; } catch (e) { return []; }
  }
  function saveHistory(h) {
    try { localStorage.setItem(HISTORY_KEY, JSON.stringify(h)); } catch (e) { /* private mode: no history */ }
  }
  const LINK_MAX = 2000;      // longer expressions get no link and no place in the history
  const linkTo = expr => 'calculator.html?e=' + encodeURIComponent(expr);

  function calculatorPage(page) {
    const input = page.querySelector('#calc-input'), out = page.querySelector('#calc-out');
    const list = page.querySelector('#calc-history'), link = page.querySelector('#calc-link');
    let past = loadHistory();
    function drawHistory() {
      list.replaceChildren(...past.map(e => {
        const li = el('li'), a = el('a', '', e);
        a.href = linkTo(e);
        li.append(a);
        return li;
      }));
    }
    async function run(expr) {
      input.value = expr;
      const linked = expr.length <= LINK_MAX;
      link.hidden = !linked;
      if (linked) {
        link.href = linkTo(expr);
        window.history.replaceState(null, '', linkTo(expr));
        past = [expr, ...past.filter(e => e !== expr)].slice(0, HISTORY_MAX);
        saveHistory(past);
        drawHistory();
      }
      await show(out, expr);
    }
    page.querySelector('#calc-form').addEventListener('submit', ev => { ev.preventDefault(); run(input.value); });
    page.querySelector('#calc-clear').addEventListener('click', () => { past = []; saveHistory(past); drawHistory(); });
    page.querySelectorAll('.calc-examples a').forEach(a => { a.href = linkTo(a.textContent); });
    drawHistory();
    const first = new URLSearchParams(location.search).get('e');
    if (first !== null) run(first);
    input.focus();
  }

  // ---- start -------------------------------------------------------------------------------------

  window.LayoutCalculator = { evaluate, available: !!wasm64 };
  function init() {
    const page = document.getElementById('calculator');
    if (!wasm64) {
      if (page) page.querySelector('#calc-missing').hidden = false;
      return;
    }
    if (page) {
      page.querySelector('#calc-ui').hidden = false;
      calculatorPage(page);
    }
    document.querySelectorAll('.live .live-expr').forEach(editable);
    document.documentElement.classList.add('calc-ready');
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
