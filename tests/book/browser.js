// browser.js BOOK_DIR: opens every page of the built book in headless
// Chromium (driven over --remote-debugging-pipe, no packages needed) and
// prints one "ok"/"not ok" line per page. A page fails on a console error or
// an uncaught exception, a resource that fails to load, a broken image, a
// resource fetched from the network, a leftover of a failed include or
// reference, or a link inside the book to a page or id that does not exist.
'use strict';
const fs = require('fs');
const path = require('path');
const { pathToFileURL, fileURLToPath } = require('url');
const cdp = require('../../mk/cdp');

const bookDir = path.resolve(process.argv[2] || 'build/book');
const pages = fs.readdirSync(bookDir).filter(f => f.endsWith('.html')).sort();
const browser = cdp.launch();
const { finish } = browser;

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
  const { sessionId } = await browser.page();
  let problems = [];
  browser.listeners.push(msg => {
    if (msg.sessionId !== sessionId) return;
    const p = msg.params || {};
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

  const seen = {};
  const lines = [];
  for (const page of pages) {
    problems = [];
    const url = pathToFileURL(path.join(bookDir, page)).href;
    await browser.open(url, sessionId);
    await new Promise(res => setTimeout(res, 200));
    dbg('loaded ' + page);
    const r = JSON.parse(await browser.eval(probe, sessionId));
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
main().catch(e => finish(['not ok - browser check: ' + e.message, ...browser.tail()]));
