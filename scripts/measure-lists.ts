/**
 * `npm run measure-lists -- /owner/repo/ [word]`: what a repository page costs a reader, in bytes
 * received: its first view (HTML, stylesheet, scripts), and the first keystroke of its filter. Serves
 * the built site (ERRDEX_DIST or dist/) and loads the page in headless Chromium at 1280 px.
 */
import { launchChromium } from '../tests/support/browser.ts';
import { serveStatic } from '../tests/support/static-server.ts';

const [path = '/', word = 'e'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const site = await serveStatic(process.env.ERRDEX_DIST || 'dist');
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const received: { url: string; bytes: number; phase: string }[] = [];
  let phase = 'first view';
  page.on('response', async (r) => {
    const p = phase;
    try {
      received.push({ url: new URL(r.url()).pathname, bytes: (await r.body()).length, phase: p });
    } catch {
      // A redirect has no body.
    }
  });
  await page.goto(`${site.url}${path}`, { waitUntil: 'networkidle' });
  phase = 'filter';
  const box = page.locator('#list-filter-box');
  if ((await box.count()) > 0) {
    await box.fill(word);
    await page.waitForFunction(() => /other pages|this page\.$/.test(document.querySelector('.filter-status')?.textContent ?? '') && !/searching/.test(document.querySelector('.filter-status')?.textContent ?? ''));
    await page.waitForLoadState('networkidle');
  }
  for (const p of ['first view', 'filter']) {
    const rows = received.filter((r) => r.phase === p);
    const total = rows.reduce((n, r) => n + r.bytes, 0);
    console.log(`${p}: ${(total / 1024).toFixed(1)} KB in ${rows.length} files`);
    for (const r of rows) console.log(`  ${(r.bytes / 1024).toFixed(1).padStart(7)} KB  ${r.url}`);
  }
  console.log(`status: ${await page.locator('.filter-status').innerText().catch(() => '')}`);
} finally {
  await browser.close();
  await site.close();
}
