// pdf.js BOOK_DIR PDF CHAPTER.html...: the PDF (printed from print.html by make) holds what the
// HTML pages hold. Reads the PDF's text with pdftotext (poppler-utils) and prints one ok/not ok
// line per property:
//   - the title page: the book's title (index.html's) on page 1;
//   - the contents: every chapter and numbered section of the pages, with its number, its title
//     and the page on which its heading stands in the PDF;
//   - the chapters: each chapter's number and title at the top of a page, in order;
//   - the figures: each caption's number ("Figure N.M:") once, within its chapter's pages, and on
//     the same page its drawing (the longest text label of its SVG file).
// (That nothing is wider than the page, mk/print-pdf.js makes sure before it prints.)
// A "#" line after each "ok" says where the chapters start; after a "not ok", what is wrong.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const [bookDir, pdf, ...chapterPages] = process.argv.slice(2);
const lines = [];
const report = (what, problems, info = []) => {
  if (problems.length) lines.push(`not ok - ${pdf}: ${what}`, ...problems.slice(0, 10).map(p => '# ' + p));
  else lines.push(`ok - ${pdf}: ${what}`, ...info.map(i => '# ' + i));
};

const entities = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const text = html => html.replace(/<[^>]*>/g, '')
  .replace(/&(#x?)?([0-9a-zA-Z]+);/g, (m, num, v) =>
    num ? String.fromCodePoint(parseInt(v, num === '#x' ? 16 : 10)) : (entities[v] ?? m));
// compared as pdftotext may give them: ligatures and other compatibility forms as plain letters,
// any run of spaces as one (drawings: no spaces at all)
const norm = s => s.normalize('NFKC').replace(/\s+/g, ' ').trim();
const squash = s => norm(s).replace(/ /g, '');
const escape = s => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// a regular expression for a line of text where pdftotext may have put a space or not
// (pdftotext -layout puts one where a font changes: "local_tile : a CTA")
const loose = s => [...s.replace(/ /g, '')].map(escape).join(' ?');

let pages;
try {
  pages = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', pdf, '-'], { maxBuffer: 1 << 28 }).toString()
    .split('\f').slice(0, -1).map(norm);
} catch (e) {
  console.log(`not ok - pdftotext cannot read ${pdf}: ${e.message.split('\n')[0]}`);
  process.exit(1);
}

// what the HTML pages hold
const read = f => fs.readFileSync(path.join(bookDir, f), 'utf8');
const bookTitle = norm(text((/<h1 class="title">([\s\S]*?)<\/h1>/.exec(read('index.html')) || [])[1] || ''));
const chapters = chapterPages.map(f => {
  const html = read(f);
  const headings = [...html.matchAll(/<h([12]) data-number="([^"]*)"[^>]*>([\s\S]*?)<\/h\1>/g)]
    .map(m => ({ level: +m[1], label: m[2], text: norm(text(m[3])).replace(`${m[2]} `, '') }));
  const figures = [...html.matchAll(/<figure>([\s\S]*?)<\/figure>/g)].map(m => {
    const src = (/<img src="([^"]*)"/.exec(m[1]) || [])[1];
    const caption = norm(text((/<figcaption[^>]*>([\s\S]*?)<\/figcaption>/.exec(m[1]) || [])[1] || ''));
    const svg = src && fs.existsSync(path.join(bookDir, src)) ? fs.readFileSync(path.join(bookDir, src), 'utf8') : '';
    const labels = [...svg.matchAll(/<text\b[^>]*>([\s\S]*?)<\/text>/g)].map(t => norm(text(t[1])));
    const drawing = labels.sort((a, b) => b.length - a.length)[0] || '';
    return { number: (/^Figure (\d+\.\d+):/.exec(caption) || [])[1], caption, src, drawing };
  });
  return { file: f, title: headings.find(h => h.level === 1), sections: headings.filter(h => h.level === 2), figures };
});

// the pages where a heading stands ("LABEL TITLE" not followed by a page number, as in the
// contents), and those where it stands at the top
const heading = (h, at = '(^| )') => new RegExp(`${at}${loose(`${h.label} ${h.text}`)}(?! \\d+( |$))( |$)`);
const headingPages = (h, at) => pages.map((p, i) => heading(h, at).test(p) ? i + 1 : 0).filter(Boolean);

// the title page
report('page 1 is the title page', pages.length && pages[0].includes(bookTitle) ? [] :
  [`page 1 does not show the title "${bookTitle}": "${(pages[0] || '').slice(0, 80)}"`]);

// the chapters, each at the top of a page, in order
const problems = [], starts = [];
let last = 0;
for (const ch of chapters) {
  if (!ch.title) { problems.push(`${ch.file} has no numbered title`); continue; }
  const title = `${ch.title.label} ${ch.title.text}`;
  const top = headingPages(ch.title, '^'), anywhere = headingPages(ch.title);
  if (!anywhere.length) problems.push(`chapter ${title} is missing`);
  else if (!top.length) problems.push(`chapter ${title} does not start a new page (it is on page ${anywhere[0]})`);
  else if (top[0] <= last) problems.push(`chapter ${title} is on page ${top[0]}, before the chapter before it`);
  ch.start = top[0] || anywhere[0] || 0;
  if (top.length) last = top[0];
  starts.push(`chapter ${ch.title.label} starts on page ${ch.start}`);
}
report(`every chapter (${chapters.length}) at the top of a new page, in order`, problems, [starts.join(', ')]);
chapters.forEach((ch, i) => { ch.end = Math.max(ch.start, ((chapters[i + 1] || {}).start || pages.length + 1) - 1); });

// the contents: every chapter and section with the page where its heading is
const toc = [], contents = pages.findIndex(p => p.startsWith('Contents '));
const tocText = contents < 0 ? '' : ' ' + pages.slice(contents, chapters.length ? Math.max(contents + 1, chapters[0].start - 1) : undefined).join(' ') + ' ';
let entries = 0;
for (const ch of chapters) {
  for (const h of [ch.title, ...ch.sections].filter(Boolean)) {
    entries++;
    const at = headingPages(h).filter(p => p >= ch.start && p <= ch.end)[0];
    const entry = `${h.label} ${h.text}`;
    if (!at) toc.push(`no page has the heading ${entry}`);
    else if (!new RegExp(` ${loose(entry)} ${at} `).test(tocText)) {
      const m = new RegExp(` ${loose(entry)} (\\d+) `).exec(tocText);
      toc.push(m ? `the contents say ${entry} is on page ${m[2]}; it is on page ${at}` : `the contents lack ${entry}`);
    }
  }
}
if (contents < 0) toc.unshift('no page starts with "Contents"');
report(`the contents list every chapter and section (${entries}) with its page`, toc);

// the figures: the caption within its chapter, and the drawing on the caption's page
const figs = [];
let nfig = 0;
for (const ch of chapters) {
  for (const f of ch.figures) {
    nfig++;
    if (!f.number) { figs.push(`${ch.file}: a figure (${f.src}) has no number`); continue; }
    const start = f.caption.split(' ').slice(0, 8).join(' ');      // "Figure N.M: and its first words"
    const where = pages.map((p, i) => p.includes(start) ? i + 1 : 0).filter(Boolean);
    if (!where.length) { figs.push(`Figure ${f.number} (${f.src}) is missing`); continue; }
    if (where.length > 1) figs.push(`Figure ${f.number} is captioned on pages ${where.join(', ')}`);
    const at = where[0];
    if (at < ch.start || at > ch.end) figs.push(`Figure ${f.number} is on page ${at}, outside chapter ${ch.title.label} (pages ${ch.start}-${ch.end})`);
    if (!f.drawing) figs.push(`Figure ${f.number}: ${f.src} has no text label to look for`);
    else if (!squash(pages[at - 1]).includes(squash(f.drawing)))
      figs.push(`Figure ${f.number}: its drawing (${f.src}, "${f.drawing}") is not on page ${at}`);
  }
}
const numbered = new Set(chapters.flatMap(ch => ch.figures.map(f => f.number)));
const extra = [...new Set(pages.flatMap(p => [...p.matchAll(/Figure (\d+\.\d+):/g)].map(m => m[1])))].filter(n => !numbered.has(n));
if (extra.length) figs.push(`captions that the pages do not have: Figure ${extra.join(', Figure ')}`);
report(`every figure (${nfig}) with its number, caption and drawing`, figs);

lines.forEach(l => console.log(l));
process.exit(lines.some(l => l.startsWith('not ok')) ? 1 : 0);
