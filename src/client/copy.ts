/**
 * Copy controls: buttons with `data-copy` copy their text (the message, a Markdown link); section
 * anchors with `data-copy-link` still jump to the section and also copy its full URL. Without
 * JavaScript the buttons stay hidden and the anchors are plain links.
 */

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Insecure origins and old browsers have no async clipboard: fall back to a selected textarea.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

function flash(el: HTMLElement, done: boolean): void {
  el.dataset.copied = done ? 'yes' : 'no';
  window.setTimeout(() => delete el.dataset.copied, 1600);
}

for (const group of document.querySelectorAll<HTMLElement>('[data-copy-buttons]')) group.hidden = false;

document.addEventListener('click', (event) => {
  const target = event.target as Element | null;
  const button = target?.closest<HTMLButtonElement>('button[data-copy]');
  if (button) {
    const status = button.parentElement?.querySelector<HTMLElement>('.copy-status');
    void copyText(button.dataset.copy ?? '').then((ok) => {
      flash(button, ok);
      if (status) status.textContent = ok ? `Copied: ${button.textContent?.replace(/^Copy /, '')}` : 'Could not copy; select the text instead.';
    });
    return;
  }
  const anchor = target?.closest<HTMLAnchorElement>('a[data-copy-link]');
  if (anchor) {
    // The link still does its job (the address bar shows the section); the full URL goes to the clipboard.
    const url = `${location.origin}${location.pathname}${anchor.hash}`;
    void copyText(url).then((ok) => flash(anchor, ok));
  }
});
