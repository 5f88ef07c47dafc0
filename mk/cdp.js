// cdp.js: headless Chromium driven over --remote-debugging-pipe (no packages needed), for the
// printing of book.pdf (mk/print-pdf.js) and the browser checks (tests/book/browser.js,
// calculator.js).
//
//   const cdp = require('./cdp');
//   const b = cdp.launch();                 // starts chromium; b.finish(lines) prints and exits
//                                           // (status 1 if a line starts "not ok" or "error:")
//   cdp.launch(ms, { fail: 'error: ', what: 'printing', flags: [...] })   // its own failure lines
//   const { sessionId } = await b.page();   // a new tab, attached
//   await b.open(url, sessionId);           // navigate and wait for the load event
//   await b.eval('1 + 1', sessionId);       // the value (awaits a promise)
//   b.listeners.push(msg => ...);           // every event
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

// a failure to start or to finish within timeoutMs is told as `${fail}${what} ...`; flags: more
// command-line switches for chromium
function launch(timeoutMs = 120000, { fail = 'not ok - ', what = 'the browser check', flags = [] } = {}) {
  const browser = process.env.CHROMIUM || 'chromium';
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'book-browser-'));
  const chrome = spawn(browser, [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check',
    '--disable-extensions', '--disable-background-networking', '--remote-debugging-pipe',
    '--user-data-dir=' + profile, ...flags, 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
  let chromeErr = '';
  chrome.stderr.on('data', d => { chromeErr += d; });
  const tail = () => chromeErr.split('\n').slice(-5).map(l => '# ' + l);

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
    const errors = lines.some(l => l.startsWith('error:'));   // a build's failure: on stderr
    const status = errors || lines.some(l => l.startsWith('not ok')) ? 1 : 0;
    lines.forEach(l => (errors ? console.error : console.log)(l));
    const end = () => {
      try { process.kill(-chrome.pid, 'SIGKILL'); } catch (e) { /* already gone */ }
      fs.rmSync(profile, { recursive: true, force: true });
      process.exit(status);
    };
    chrome.on('exit', end);
    setTimeout(end, 5000);
    send('Browser.close').catch(end);
  }
  chrome.on('error', e => finish([`${fail}${what}: start ${browser}: ${e.message}`]));
  setTimeout(() => finish([`${fail}${what} timed out after ${timeoutMs / 1000} s`, ...tail()]), timeoutMs);

  let loaded = null;
  listeners.push(msg => { if (msg.method === 'Page.loadEventFired' && loaded) loaded(); });
  async function page() {
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    for (const m of ['Page.enable', 'Runtime.enable', 'Log.enable', 'Network.enable']) await send(m, {}, sessionId);
    return { sessionId };
  }
  async function open(url, sessionId) {
    const load = new Promise(res => { loaded = res; });
    await send('Page.navigate', { url }, sessionId);
    await Promise.race([load, new Promise(res => setTimeout(res, 15000))]);
  }
  async function evaluate(expression, sessionId) {
    const { result, exceptionDetails } = await send('Runtime.evaluate',
      { expression, returnByValue: true, awaitPromise: true }, sessionId);
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description || exceptionDetails.text);
    return result.value;
  }
  return { send, finish, listeners, page, open, eval: evaluate, tail };
}

module.exports = { launch };
