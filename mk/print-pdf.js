// print-pdf.js PRINT_HTML PDF: prints the book in one page (print.html: title page, contents,
// every chapter) to PDF with headless Chromium (mk/cdp.js). The page's own CSS (chapters/print.css
// and book.css's @media print) sets the paper, the page breaks and the page numbers in the footer;
// this script only fills in the contents' page numbers: it prints once, reads from the PDF on
// which page each entry's target landed (the PDF's named destinations, which Chromium writes for
// the targets of the page's links), writes those numbers into the contents (span.toc-page, whose
// width is reserved, so nothing moves) and prints again, until the numbers settle.
// Fails, naming the cause, on a figure that does not load, anything that reaches past the margins
// (which Chromium would cut off or shrink the book for), an entry of the contents with no page, or
// a print that takes longer than two minutes.
'use strict';
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const cdp = require('./cdp');

const [html, pdf] = process.argv.slice(2);
if (!html || !pdf) {
  console.error('usage: node mk/print-pdf.js BOOK/print.html BOOK/book.pdf');
  process.exit(2);
}
// (file access: the page reads its own stylesheet's @page rule)
const browser = cdp.launch(120000, { fail: 'error: ', what: `printing ${pdf}`, flags: ['--allow-file-access-from-files'] });
const fail = msg => browser.finish([`error: ${pdf}: ${msg}`]);

// The PDF's objects by number: the text of each object's dictionary (Chromium's PDF keeps its
// dictionaries in plain text; only streams are compressed, and they are not read here).
function objects(buf) {
  const text = buf.toString('latin1'), objs = new Map();
  const re = /(?:^|[\r\n])(\d+) 0 obj\b/g;
  let m;
  while ((m = re.exec(text))) {
    const end = /\bendobj\b|>>\s*stream\r?\n/g;   // (a name may hold "stream": /sec:stream-k)
    end.lastIndex = re.lastIndex;
    const e = end.exec(text);
    objs.set(+m[1], text.slice(re.lastIndex, e ? e.index + (e[0].startsWith(">>") ? 2 : 0) : text.length));
  }
  return objs;
}

// { name: page } for every named destination of the PDF (pages counted from 1)
function destinationPages(buf) {
  const objs = objects(buf);
  const ref = (body, key) => { const m = new RegExp(`/${key}\\s+(\\d+) 0 R`).exec(body || ''); return m && +m[1]; };
  const catalog = [...objs.values()].find(b => /\/Type\s*\/Catalog\b/.test(b));
  if (!catalog) throw new Error('the PDF that Chromium wrote has no catalog');
  const pageOf = new Map();
  const walk = n => {              // the page tree, in order
    const body = objs.get(n) || '';
    if (/\/Type\s*\/Pages\b/.test(body)) {
      const kids = /\/Kids\s*\[([^\]]*)\]/.exec(body);
      for (const k of (kids ? kids[1] : '').matchAll(/(\d+) 0 R/g)) walk(+k[1]);
    } else pageOf.set(n, pageOf.size + 1);
  };
  walk(ref(catalog, 'Pages'));
  const dests = {}, dict = objs.get(ref(catalog, 'Dests')) || '';
  for (const m of dict.matchAll(/\/((?:[^\s/\[\]<>()#%{}]|#[0-9A-Fa-f]{2})+)\s*\[\s*(\d+) 0 R/g)) {
    const name = Buffer.from(m[1].replace(/#([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
    dests[name] = pageOf.get(+m[2]);
  }
  return dests;
}

// What does not fit the width of the page: laid out as for print (print media, the width between
// the margins of the stylesheet's @page rule, whose size must be given as lengths), every element
// and every run of text that reaches past the right margin or the left one, as "element in
// SECTION ("its text")", the innermost element for each.
async function tooWide(sessionId) {
  const width = await browser.eval(`(() => {
    const rule = [...document.styleSheets].flatMap(s => [...s.cssRules])
      .find(r => r instanceof CSSPageRule && !r.selectorText);
    const size = rule && rule.style.getPropertyValue('size').split(' ')[0];
    if (!/^[\\d.]+[a-z]+$/.test(size || '')) return null;
    const probe = document.createElement('div');
    probe.style.width = 'calc(' + size + ' - ' + rule.style.marginLeft + ' - ' + rule.style.marginRight + ')';
    document.body.append(probe);
    const w = probe.getBoundingClientRect().width;
    probe.remove();
    return Math.floor(w);
  })()`, sessionId);
  if (!width) return { error: `${html}: its stylesheet has no @page rule with a size in lengths (e.g. size: 210mm 297mm)` };
  await browser.send('Emulation.setEmulatedMedia', { media: 'print' }, sessionId);
  await browser.send('Emulation.setDeviceMetricsOverride', { width, height: 1000, deviceScaleFactor: 1, mobile: false }, sessionId);
  const wide = await browser.eval(`(() => {
    const limit = document.documentElement.clientWidth + 0.5;
    const out = q => q.width > 0 && (q.left < -0.5 || q.right > limit);
    const boxes = [...document.body.querySelectorAll('*')].filter(e => out(e.getBoundingClientRect()));
    const found = boxes.filter(e => !boxes.some(o => o !== e && e.contains(o)));
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), range = document.createRange();
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      range.selectNodeContents(t);
      if (t.data.trim() && [...range.getClientRects()].some(out)) found.push(t.parentElement);
    }
    const where = e => {
      const s = e.closest('section'), h = s && s.querySelector('h1, h2, h3, h4, h5, h6');
      return h ? h.textContent.replace(/\\s+/g, ' ').trim() : 'the front matter';
    };
    const name = e => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ')[0] : '');
    return found.map(e => {
      const block = e.closest('pre, table, figure, p, li, div') || e;
      return name(block) + ' in ' + where(e) + ' ("' + e.textContent.replace(/\\s+/g, ' ').trim().slice(0, 40) + '")';
    });
  })()`, sessionId);
  await browser.send('Emulation.clearDeviceMetricsOverride', {}, sessionId);
  await browser.send('Emulation.setEmulatedMedia', { media: '' }, sessionId);
  return Object.assign([...new Set(wide)], { width });
}

async function main() {
  const { sessionId } = await browser.page();
  await browser.open(pathToFileURL(path.resolve(html)).href, sessionId);
  const broken = await browser.eval(`(async () => {
    await document.fonts.ready;
    await Promise.all([...document.images].map(i => i.decode().catch(() => {})));
    return [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src'));
  })()`, sessionId);
  if (broken.length) return fail(`figures that did not load: ${broken.join(', ')}`);
  const wide = await tooWide(sessionId);
  if (wide.error) return fail(wide.error);
  if (wide.length) {
    return fail(`past the margins, ${wide.width}px apart (Chromium would cut it off or shrink every page): ` +
      wide.slice(0, 5).join('; ') + (wide.length > 5 ? `; and ${wide.length - 5} more` : ''));
  }
  const targets = await browser.eval(`[...document.querySelectorAll('.book-toc a[href^="#"]')]
    .map(a => decodeURIComponent(a.getAttribute('href').slice(1)))`, sessionId);
  if (!targets.length) return fail(`${html} has no contents (.book-toc)`);

  let numbers = null;
  for (let pass = 1; pass <= 3; pass++) {
    const { data } = await browser.send('Page.printToPDF', {
      preferCSSPageSize: true, printBackground: true, generateDocumentOutline: true,
    }, sessionId);
    const buf = Buffer.from(data, 'base64');
    const dests = destinationPages(buf);
    const missing = targets.filter(t => !dests[t]);
    if (missing.length) return fail(`no page in the PDF for the contents' entries #${missing.slice(0, 5).join(', #')}`);
    const now = targets.map(t => dests[t]);
    if (numbers && now.every((n, i) => n === numbers[i])) {
      fs.writeFileSync(pdf + '.tmp', buf);
      fs.renameSync(pdf + '.tmp', pdf);
      return browser.finish([]);
    }
    numbers = now;
    await browser.eval(`(pages => {
      document.querySelectorAll('.book-toc a[href^="#"]').forEach((a, i) => {
        const span = a.querySelector('.toc-page');
        if (span) span.textContent = pages[i];
      });
    })(${JSON.stringify(numbers)})`, sessionId);
  }
  fail('the page numbers of the contents do not settle after 3 prints');
}
main().catch(e => fail(e.message));
