/** The browser lookup's order: CHROMIUM_PATH, then the system's browsers, then Playwright's installed ones. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findChromium } from '../../support/browser.ts';

let root: string;

function executable(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'errdex-browser-'));
  mkdirSync(join(root, 'empty'));
  vi.stubEnv('CHROMIUM_PATH', '');
  vi.stubEnv('PATH', join(root, 'empty'));
  vi.stubEnv('PLAYWRIGHT_BROWSERS_PATH', join(root, 'empty'));
});

afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

// Elsewhere the usual app folders (/Applications, Program Files) may hold a real browser.
describe.runIf(platform() === 'linux')('findChromium', () => {
  it('takes CHROMIUM_PATH before any other browser', () => {
    executable(join(root, 'bin', 'chromium'));
    vi.stubEnv('PATH', join(root, 'bin'));
    const chosen = executable(join(root, 'my', 'chrome'));
    vi.stubEnv('CHROMIUM_PATH', chosen);
    expect(findChromium()).toEqual({ path: chosen, source: 'CHROMIUM_PATH' });
  });

  it('refuses a CHROMIUM_PATH that is not an executable file, naming it', () => {
    const notExecutable = join(root, 'chrome.txt');
    writeFileSync(notExecutable, '');
    vi.stubEnv('CHROMIUM_PATH', notExecutable);
    expect(() => findChromium()).toThrow(`CHROMIUM_PATH is set to ${notExecutable}, which is not an executable file.`);
  });

  it('finds the system browser on the PATH, chromium before chrome', () => {
    const chrome = executable(join(root, 'a', 'google-chrome'));
    vi.stubEnv('PATH', join(root, 'a'));
    expect(findChromium()).toEqual({ path: chrome, source: 'system' });
    const chromiumBrowser = executable(join(root, 'b', 'chromium-browser'));
    vi.stubEnv('PATH', [join(root, 'a'), join(root, 'b')].join(':'));
    expect(findChromium()).toEqual({ path: chromiumBrowser, source: 'system' });
  });

  it("falls back to Playwright's installed browsers, newest revision first", () => {
    const browsers = join(root, 'ms-playwright');
    executable(join(browsers, 'chromium-1100', 'chrome-linux64', 'chrome'));
    const newest = executable(join(browsers, 'chromium_headless_shell-1200', 'chrome-headless-shell-linux64', 'chrome-headless-shell'));
    mkdirSync(join(browsers, 'firefox-1300'));
    vi.stubEnv('PLAYWRIGHT_BROWSERS_PATH', browsers);
    expect(findChromium()).toEqual({ path: newest, source: 'playwright' });
  });

  it('finds nothing when there is nothing', () => {
    expect(findChromium()).toBeUndefined();
  });
});
