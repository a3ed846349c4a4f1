/** Behaviour every page shares: the theme toggle, the `/` shortcut to the search box, the copy controls and the search boxes (paste-box.ts). */
import './copy.ts';
import './paste-box.ts';

const STORAGE_KEY = 'errdex-theme';
const root = document.documentElement;

function currentTheme(): 'light' | 'dark' {
  const set = root.dataset.theme;
  if (set === 'light' || set === 'dark') return set;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const toggle = document.querySelector<HTMLButtonElement>('[data-theme-toggle]');
if (toggle) {
  const label = () => {
    const next = currentTheme() === 'dark' ? 'light' : 'dark';
    toggle.setAttribute('aria-label', `Switch to ${next} theme`);
    toggle.title = `Switch to ${next} theme`;
  };
  toggle.hidden = false;
  label();
  toggle.addEventListener('click', () => {
    const next = currentTheme() === 'dark' ? 'light' : 'dark';
    root.dataset.theme = next;
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage may be disabled; the choice then lasts for this page only.
    }
    label();
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', label);
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
