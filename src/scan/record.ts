/**
 * A scanned site -> an errdex record. Facts come from the site (message, class, place, excerpt,
 * guard, enclosing definition, doc comment, comments); prose that only a person can write is left
 * empty (lists, code fields) or says it was generated from the code and invites an edit.
 */
import type { ErrorRecord, Severity } from '../schema/record.ts';
import { LIMITS, SCHEMA_VERSION } from '../schema/record.ts';
import { encodeRepoPath } from '../schema/field-checks.ts';
import { slugOf } from './ids.ts';
import type { Template } from './message.ts';
import type { ScanLanguage } from './select.ts';
import { LANGUAGE_NAME } from './select.ts';
import type { Site } from './site.ts';

/** Marks generated prose: `--merge` replaces text that still carries it and keeps text that does not. */
export const GENERATED_MARK = 'Generated from the code by errdex scan';
const INVITE = `${GENERATED_MARK}; edit this text to say more.`;

/** Lines of context kept above and below the raising statement. */
export const EXCERPT_CONTEXT = 12;

export interface FileFacts {
  repo: string;
  sha: string;
  analyzedAt: string;
  path: string;
  language: ScanLanguage;
  /** The file's lines (LF line ends). */
  lines: string[];
}

const GENERIC_DIRS = new Set(['src', 'lib', 'pkg', 'internal', 'packages', 'crates', 'cmd', 'app', 'source', 'sources', 'main', 'java', 'python', 'py', 'js', 'ts']);

const kebab = (s: string): string =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

export function tagsOf(file: FileFacts, site: Site): string[] {
  const segments = file.path.split('/');
  const stem = segments.pop()!.replace(/\.[^.]+$/, '');
  const dirs = segments.filter((d) => !GENERIC_DIRS.has(d.toLowerCase())).slice(-2);
  const cls = site.kind === 'panic' ? 'panic' : site.errorClass ? site.errorClass.split('::').at(-1)! : null;
  const raw = [LANGUAGE_NAME[file.language], ...dirs, stem === 'index' || stem === 'mod' || stem === '__init__' ? '' : stem, cls ?? ''];
  const tags: string[] = [];
  for (const t of raw.map(kebab)) if (t && t.length <= LIMITS.tag && !tags.includes(t)) tags.push(t);
  return tags;
}

export function severityOf(site: Site): Severity {
  if (site.kind === 'panic') return 'critical';
  if (site.kind === 'warning') return 'warning';
  if (site.errorClass && /Warning$/.test(site.errorClass)) return 'warning';
  return 'error';
}

/** C0/C1 control characters (other than tab and line feed) shown as their visible pictures. */
export function visibleControls(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd';
  });
}

function excerpt(file: FileFacts, site: Site): { sourceCode: string | null; sourceCodeStart: number | null; sourceCodeEnd: number | null } {
  for (const context of [EXCERPT_CONTEXT, 0]) {
    const start = Math.max(1, site.line - context);
    const end = Math.min(file.lines.length, site.endLine + context, start + LIMITS.codeLines - 1);
    const code = visibleControls(file.lines.slice(start - 1, end).join('\n'));
    if (code.length <= LIMITS.code && code.trim() !== '') return { sourceCode: code, sourceCodeStart: start, sourceCodeEnd: end };
  }
  return { sourceCode: null, sourceCodeStart: null, sourceCodeEnd: null };
}

const RAISES: Record<Site['kind'], string> = { exception: 'raised in', panic: 'in', warning: 'issued in', definition: 'defined in' };

function where(file: FileFacts, site: Site): string {
  const place = `${file.path}:${site.line}`;
  return site.enclosing ? `\`${site.enclosing}\` (${place})` : place;
}

function guardSentence(site: Site): string | null {
  const g = site.guard;
  if (!g) return null;
  switch (g.kind) {
    case 'if':
      return `The code raises it when \`${g.code}\` holds.`;
    case 'else':
      return `The code raises it when \`${g.code}\` does not hold (the \`else\` branch).`;
    case 'catch':
      return g.code ? `The code raises it while handling \`${g.code}\`.` : 'The code raises it while handling another error.';
    case 'case':
      return `The code raises it when the value matches \`${g.code}\`.`;
    case 'default':
      return `The code raises it when no other branch of the \`${g.code}\` matches.`;
  }
}

function what(site: Site): string {
  if (site.kind === 'panic') return `A panic (\`${site.form}\`)`;
  if (site.kind === 'warning') return `The warning \`${site.errorClass}\` (\`${site.form}\`)`;
  if (site.form === '#[error]') return `The error \`${site.errorClass}\` (\`#[error]\`)`;
  return site.errorClass ? `\`${site.errorClass}\` (\`${site.form}\`)` : `An error (\`${site.form}\`)`;
}

export function prose(file: FileFacts, site: Site): Pick<ErrorRecord, 'documentation' | 'triggerScenarios' | 'commonSituations'> {
  const doc: string[] = [];
  const definition = site.form === '#[error]' || site.enclosingKind === 'variable' || site.kind === 'definition';
  if (site.form === '#[error]') doc.push(`${what(site)} is defined in ${file.path}:${site.line}; this message is its \`Display\` text.`);
  else if (site.kind === 'definition') doc.push(`The error class \`${site.errorClass}\` carries this message (\`${site.form}\`), defined in ${file.path}:${site.line}.`);
  else if (definition) doc.push(`The error value \`${site.enclosing}\` (\`${site.form}\`) is defined in ${file.path}:${site.line}.`);
  else doc.push(`${what(site)} ${RAISES[site.kind]} ${where(file, site)}.`);
  if (site.doc) doc.push(`${site.enclosing ? `\`${site.enclosing}\`` : 'The code'} is documented as: "${site.doc}"`);
  if (site.comment) doc.push(`The comment beside it says: "${site.comment}"`);
  const holes = site.parts.filter((p) => p.kind === 'hole').map((p) => `\`{${p.kind === 'hole' ? p.name : ''}}\``);
  if (site.builtBy) doc.push(`Its message is built by the \`${site.builtBy}\` constructor${holes.length > 0 ? ' from the arguments passed here; its placeholders are named as in that constructor' : ''}.`);
  if (holes.length > 0) doc.push(`The message shows the run-time value${holes.length > 1 ? 's' : ''} of ${[...new Set(holes)].join(', ')}.`);
  doc.push(INVITE);
  const trigger = guardSentence(site);
  if (definition) {
    return {
      documentation: doc.join(' '),
      triggerScenarios: `Not known from the code here: the error is returned wherever \`${site.errorClass ?? site.enclosing}\` is used. ${INVITE}`,
      commonSituations: `Not known from the code. ${INVITE}`,
    };
  }
  return {
    documentation: doc.join(' '),
    triggerScenarios: trigger
      ? `${site.enclosing ? trigger.replace(/\.$/, ` in \`${site.enclosing}\`.`) : trigger} ${INVITE}`
      : `The code shows no condition around it${site.enclosing ? ` inside \`${site.enclosing}\`` : ''}. ${INVITE}`,
    commonSituations: `Not known from the code. ${INVITE}`,
  };
}

export function buildRecord(file: FileFacts, site: Site, template: Template, id: string): ErrorRecord {
  const lineAnchor = site.endLine > site.line ? `#L${site.line}-L${site.endLine}` : `#L${site.line}`;
  return {
    id,
    repo: file.repo,
    slug: slugOf(template.errorMessage, id),
    errorCode: null,
    errorMessage: template.errorMessage,
    messagePattern: template.messagePattern,
    // A warning is printed and the program goes on: a console message.
    errorType: site.kind === 'panic' ? 'panic' : site.kind === 'warning' ? 'console' : 'exception',
    errorClass: site.errorClass,
    httpStatus: null,
    severity: severityOf(site),
    filePath: file.path,
    lineNumber: site.line,
    ...excerpt(file, site),
    githubUrl: `https://github.com/${file.repo}/blob/${file.sha}/${encodeRepoPath(file.path)}${lineAnchor}`,
    ...prose(file, site),
    solutions: [],
    exampleFix: null,
    handlingStrategy: null,
    validationCode: null,
    typeGuard: null,
    tryCatchPattern: null,
    preventionTips: [],
    tags: tagsOf(file, site),
    backgroundTag: null,
    analyzedSha: file.sha,
    analyzedAt: file.analyzedAt,
    schemaVersion: SCHEMA_VERSION,
  };
}
