/** Behaviour every page shares: the theme toggle, the `/` shortcut to the search box, the copy controls and the search boxes (paste-box.ts). */
import './copy.ts';
import './paste-box.ts';

const STORAGE_KEY = 'errdex-theme';
const root = document.documentElement;

/** The theme as chosen: following the system, or pinned light or dark (data-theme, set before paint). */
type Mode = 'system' | 'light' | 'dark';
/** Each click moves to the next: system → light → dark → system. */
const NEXT: Record<Mode, Mode> = { system: 'light', light: 'dark', dark: 'system' };
const NAME: Record<Mode, string> = { system: 'System', light: 'Light', dark: 'Dark' };

function currentMode(): Mode {
  const set = root.dataset.theme;
  return set === 'light' || set === 'dark' ? set : 'system';
}

const systemDark = matchMedia('(prefers-color-scheme: dark)');

const toggle = document.querySelector<HTMLButtonElement>('[data-theme-toggle]');
if (toggle) {
  // The mode's name beside the icon (the icon alone on narrow screens: src/styles/base.css).
  const text = document.createElement('span');
  text.className = 'theme-name';
  text.setAttribute('aria-hidden', 'true');
  toggle.append(text);
  const label = () => {
    const mode = currentMode();
    const now = mode === 'system' ? `System (${systemDark.matches ? 'dark' : 'light'})` : NAME[mode];
    const next = NEXT[mode] === 'system' ? 'follow the system' : `${NEXT[mode]} theme`;
    toggle.dataset.mode = mode;
    text.textContent = NAME[mode];
    toggle.setAttribute('aria-label', `Theme: ${now}. Switch to ${next}`);
    toggle.title = `Theme: ${now}. Click to switch to ${next}.`;
  };
  toggle.hidden = false;
  label();
  toggle.addEventListener('click', () => {
    const next = NEXT[currentMode()];
    if (next === 'system') delete root.dataset.theme;
    else root.dataset.theme = next;
    try {
      if (next === 'system') localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage may be disabled; the choice then lasts for this page only.
    }
    label();
  });
  systemDark.addEventListener('change', label);
}

document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target as HTMLElement | null;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  const box = document.querySelector<HTMLInputElement>('#site-search');
  if (!box) return;
  event.preventDefault();
  box.focus();
  box.select();
});
