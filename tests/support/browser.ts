/**
 * Finds a Chromium or Chrome for the browser tests and benches, and launches it through playwright-core.
 * Looks, in order, at CHROMIUM_PATH, the system's browsers (PATH, then the usual macOS and Windows
 * installs), then browsers Playwright has already installed; it never downloads one. Run directly
 * (`node tests/support/browser.ts`) it prints what it found, or says how to provide a browser and exits 1.
 */
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export interface FoundChromium {
  path: string;
  /** Where it was found: 'CHROMIUM_PATH', 'system' or 'playwright'. */
  source: string;
}

const SYSTEM_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

function onPath(command: string): string | undefined {
  const extensions = platform() === 'win32' ? ['.exe', ''] : [''];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const extension of extensions) {
      const candidate = join(dir, command + extension);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Installed application bundles, which are not on the PATH. */
function appPaths(): string[] {
  if (platform() === 'darwin') {
    const apps = ['Chromium.app/Contents/MacOS/Chromium', 'Google Chrome.app/Contents/MacOS/Google Chrome'];
    return ['/Applications', join(homedir(), 'Applications')].flatMap((dir) => apps.map((app) => join(dir, app)));
  }
  if (platform() === 'win32') {
    const roots = [process.env.PROGRAMFILES, process.env['PROGRAMFILES(X86)'], process.env.LOCALAPPDATA].filter((r): r is string => !!r);
    return roots.flatMap((root) => [join(root, 'Chromium', 'Application', 'chrome.exe'), join(root, 'Google', 'Chrome', 'Application', 'chrome.exe')]);
  }
  return [];
}

/** Playwright's browser folder: PLAYWRIGHT_BROWSERS_PATH, else its per-platform cache. */
function playwrightBrowsersDir(): string {
  const configured = process.env.PLAYWRIGHT_BROWSERS_PATH;
  if (configured && configured !== '0') return configured;
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Caches', 'ms-playwright');
  if (platform() === 'win32') return join(process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'ms-playwright');
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'ms-playwright');
}

/** Executables inside one of Playwright's Chromium folders (full browser or headless shell), by platform build. */
const PLAYWRIGHT_EXECUTABLES = [
  'chrome-linux64/chrome',
  'chrome-linux/chrome',
  'chrome-headless-shell-linux64/chrome-headless-shell',
  'chrome-linux/headless_shell',
  'chrome-mac-arm64/Chromium.app/Contents/MacOS/Chromium',
  'chrome-mac-x64/Chromium.app/Contents/MacOS/Chromium',
  'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
  'chrome-headless-shell-mac-arm64/chrome-headless-shell',
  'chrome-headless-shell-mac-x64/chrome-headless-shell',
  'chrome-win64/chrome.exe',
  'chrome-win/chrome.exe',
  'chrome-headless-shell-win64/chrome-headless-shell.exe',
];

/**
 * Playwright's browsers: first the one this playwright-core version expects (its registry's path, public
 * as `chromium.executablePath()`), then any other Chromium revision in its folder, newest first.
 */
function playwrightPaths(): string[] {
  const paths: string[] = [];
  try {
    paths.push(chromium.executablePath());
  } catch {
    // This playwright-core knows no Chromium build for the platform: the folder scan below may still find one.
  }
  const dir = playwrightBrowsersDir();
  if (existsSync(dir)) {
    const revision = (name: string): number => Number(name.slice(name.lastIndexOf('-') + 1)) || 0;
    const folders = readdirSync(dir)
      .filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
      .sort((a, b) => revision(b) - revision(a) || a.localeCompare(b));
    for (const folder of folders) for (const executable of PLAYWRIGHT_EXECUTABLES) paths.push(join(dir, folder, executable));
  }
  return paths;
}

/** The browser the tests will use, or undefined when there is none. A set CHROMIUM_PATH must be right. */
export function findChromium(): FoundChromium | undefined {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!isExecutable(configured)) throw new Error(`CHROMIUM_PATH is set to ${configured}, which is not an executable file.`);
    return { path: configured, source: 'CHROMIUM_PATH' };
  }
  for (const command of SYSTEM_COMMANDS) {
    const path = onPath(command);
    if (path) return { path, source: 'system' };
  }
  const app = appPaths().find(isExecutable);
  if (app) return { path: app, source: 'system' };
  const installed = playwrightPaths().find(isExecutable);
  if (installed) return { path: installed, source: 'playwright' };
  return undefined;
}

export const NO_CHROMIUM_HELP = [
  'The browser tests need Chromium or Chrome, and none was found (looked at CHROMIUM_PATH, then',
  `${SYSTEM_COMMANDS.join(', ')} on the PATH and the usual app folders, then Playwright's browsers in ${playwrightBrowsersDir()}).`,
  'Provide one of:',
  '  - your system package: Debian `apt-get install chromium`, Fedora `dnf install chromium`, macOS `brew install --cask chromium` or Google Chrome;',
  '  - CHROMIUM_PATH=/path/to/chrome npm test (any Chromium-based browser binary);',
  "  - `npx playwright-core install chromium` (downloads Playwright's own build; the tests never download one themselves).",
  'Unit tests alone need no browser: npm run test:unit.',
].join('\n');

let found: FoundChromium | undefined;

/** The browser found once per process; throws with NO_CHROMIUM_HELP when there is none. */
export function chromiumPath(): string {
  found ??= findChromium();
  if (!found) throw new Error(NO_CHROMIUM_HELP);
  return found.path;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

if (import.meta.main) {
  try {
    const result = findChromium();
    if (result) console.log(`Chromium for the browser tests: ${result.path} (${result.source})`);
    else {
      console.error(NO_CHROMIUM_HELP);
      process.exitCode = 1;
    }
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
