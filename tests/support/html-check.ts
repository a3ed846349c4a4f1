/** html-validate over built pages, with the project's rules (.htmlvalidate.mjs) whatever folder the site is in. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import config from '../../.htmlvalidate.mjs';

const validator = new HtmlValidate({ ...config, root: true });

/** One line per error (`file:line:column  rule  message`); empty when every page is valid. */
export async function htmlErrors(root: string, files: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const file of files.filter((f) => f.endsWith('.html'))) {
    const report = await validator.validateString(readFileSync(join(root, file), 'utf8'), file);
    for (const result of report.results) {
      for (const m of result.messages) if (m.severity === 2) out.push(`${file}:${m.line}:${m.column}  ${m.ruleId}  ${m.message}`);
    }
  }
  return out;
}
