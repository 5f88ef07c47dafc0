// browser.js BOOK_DIR: opens every page of the built book in headless
// Chromium (driven over --remote-debugging-pipe, no packages needed) and
// prints one "ok"/"not ok" line per page. A page fails on a console error or
// an uncaught exception, a resource that fails to load, a broken image, a
// resource fetched from the network, a leftover of a failed include or
// reference, or a link inside the book to a page or id that does not exist.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL, fileURLToPath } = require('url');

const bookDir = path.resolve(process.argv[2] || 'build/book');
const browser = process.env.CHROMIUM || 'chromium';
const pages = fs.readdirSync(bookDir).filter(f => f.endsWith('.html')).sort();
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'book-browser-'));

const chrome = spawn(browser, [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check',
  '--disable-extensions', '--disable-background-networking', '--remote-debugging-pipe',
  '--user-data-dir=' + profile, 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
let chromeErr = '';
chrome.stderr.on('data', d => { chromeErr += d; });
chrome.on('error', e => finish([`not ok - start ${browser}: ${e.message}`]));

const out = chrome.stdio[3], inp = chrome.stdio[4];
let nextId = 1, buf = Buffer.alloc(0);
const waiting = new Map(), listeners = [];
inp.on('data', chunk => {
  buf = Buffer.concat([buf, chunk]);
  let z;
  while ((z = buf.indexOf(0)) >= 0) {
    const msg = JSON.parse(buf.slice(0, z).toString('utf8'));
    buf = buf.slice(z + 1);
    if (msg.id && waiting.has(msg.id)) {
      const { resolve, reject } = waiting.get(msg.id);
      waiting.delete(msg.id);
      msg.error ? reject(new Error(msg.error.message)) : resolve(msg.result);
    } else if (msg.method) {
      listeners.forEach(f => f(msg));
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = { id, method, params };
  if (sessionId) msg.sessionId = sessionId;
  out.write(JSON.stringify(msg) + '\0');
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

let done = false;
function finish(lines) {
  if (done) return;
  done = true;
  lines.forEach(l => console.log(l));
  const status = lines.some(l => l.startsWith('not ok')) ? 1 : 0;
  const end = () => {
    try { process.kill(-chrome.pid, 'SIGKILL'); } catch (e) { /* already gone */ }
    fs.rmSync(profile, { recursive: true, force: true });
    process.exit(status);
  };
  chrome.on('exit', end);
  setTimeout(end, 5000);
  send('Browser.close').catch(end);
}
setTimeout(() => finish(['not ok - the browser check timed out', ...chromeErr.split('\n').slice(-5).map(l => '# ' + l)]), 120000);

// what the page itself reports about its images, links and leftovers
const probe = `(() => {
  const r = { ids: [], links: [], badImages: [], external: [], leftovers: [] };
  document.querySelectorAll('[id]').forEach(e => r.ids.push(e.id));
  document.querySelectorAll('a[href]').forEach(a => r.links.push(a.href));
  document.querySelectorAll('img').forEach(i => {
    if (!i.complete || i.naturalWidth === 0) r.badImages.push(i.getAttribute('src'));
  });
  document.querySelectorAll('img[src], script[src], link[href], iframe[src], source[src]').forEach(e => {
    const u = e.src || e.href;
    if (/^(https?:)?\\/\\//.test(e.getAttribute('src') || e.getAttribute('href') || '')) r.external.push(u);
  });
  document.querySelectorAll('[data-include], [data-include-output], [data-snippet], .citation, pre.layout, pre.layout-grid')
    .forEach(e => r.leftovers.push(e.outerHTML.slice(0, 120)));
  return JSON.stringify(r);
})()`;

async function main() {
  const t0 = Date.now();
  const dbg = s => process.env.DEBUG && console.error((Date.now() - t0) + 'ms ' + s);
  dbg('start');
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  let problems = [];
  let loaded = null;
  listeners.push(msg => {
    if (msg.sessionId !== sessionId) return;
    const p = msg.params || {};
    if (msg.method === 'Page.loadEventFired' && loaded) loaded();
    if (msg.method === 'Runtime.exceptionThrown')
      problems.push('uncaught exception: ' + (p.exceptionDetails.exception?.description || p.exceptionDetails.text));
    if (msg.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert'))
      problems.push('console error: ' + p.args.map(a => a.value ?? a.description).join(' '));
    if (msg.method === 'Log.entryAdded' && p.entry.level === 'error')
      problems.push('console error: ' + p.entry.text + (p.entry.url ? ' (' + p.entry.url + ')' : ''));
    if (msg.method === 'Network.loadingFailed' && !p.canceled)
      problems.push('failed to load: ' + p.errorText + ' ' + (p.requestId || ''));
    if (msg.method === 'Network.requestWillBeSent' && /^https?:/.test(p.request.url))
      problems.push('network request: ' + p.request.url);
  });
  for (const m of ['Page.enable', 'Runtime.enable', 'Log.enable', 'Network.enable']) await send(m, {}, sessionId);

  const seen = {};
  const lines = [];
  for (const page of pages) {
    problems = [];
    const url = pathToFileURL(path.join(bookDir, page)).href;
    const load = new Promise(res => { loaded = res; });
    await send('Page.navigate', { url }, sessionId);
    await Promise.race([load, new Promise(res => setTimeout(res, 15000))]);
    await new Promise(res => setTimeout(res, 200));
    dbg('loaded ' + page);
    const { result } = await send('Runtime.evaluate', { expression: probe, returnByValue: true }, sessionId);
    const r = JSON.parse(result.value);
    r.badImages.forEach(s => problems.push('broken image: ' + s));
    r.external.forEach(s => problems.push('resource from the network: ' + s));
    r.leftovers.forEach(s => problems.push('unresolved include or reference: ' + s));
    seen[page] = { ids: new Set(r.ids), links: r.links, problems };
  }
  // links inside the book: the page must exist, and the id on it
  for (const page of pages) {
    const { links, problems } = seen[page];
    for (const href of links) {
      if (!href.startsWith('file:')) continue; // links out of the book are not followed
      const u = new URL(href);
      const file = fileURLToPath('file://' + u.pathname);
      const rel = path.relative(bookDir, file);
      if (rel.startsWith('..')) { problems.push('link leaves the book: ' + href); continue; }
      if (!fs.existsSync(file)) { problems.push('link to a missing file: ' + rel); continue; }
      const id = decodeURIComponent(u.hash.slice(1));
      if (id && seen[rel] && !seen[rel].ids.has(id)) problems.push('link to a missing id: ' + rel + '#' + id);
    }
    lines.push((problems.length ? 'not ok' : 'ok') + ' - the browser opens ' + page + ' cleanly');
    problems.forEach(p => lines.push('# ' + p));
  }
  if (pages.length === 0) lines.push('not ok - no pages in ' + bookDir);
  finish(lines);
}
main().catch(e => finish(['not ok - browser check: ' + e.message, ...chromeErr.split('\n').slice(-5).map(l => '# ' + l)]));
