/** axe-core in a Chromium page: the accessibility violations at or above an impact. */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

const IMPACTS = ['minor', 'moderate', 'serious', 'critical'] as const;
export type Impact = (typeof IMPACTS)[number];

/**
 * Runs axe on the page as it stands and returns one line per violating element
 * (`rule (impact): target — summary`). The page needs a context with `bypassCSP: true`: axe is
 * injected as an inline script, which the site's policy rightly refuses.
 */
export async function axeViolations(page: Page, minImpact: Impact = 'serious'): Promise<string[]> {
  await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  const floor = IMPACTS.indexOf(minImpact);
  return results.violations
    .filter((v) => v.impact && IMPACTS.indexOf(v.impact) >= floor)
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? v.help}`));
}
