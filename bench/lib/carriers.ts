/**
 * How else a real error reaches the search box: the clean pastes of `search-dev` as other tools
 * print them (log formats, runtimes, CLIs the real set does not hold) and as the places people copy
 * them from carry them (Markdown, HTML, JSON, an address), for scripts/bench-search-wrapped.ts.
 * Each is written from how the tool prints; the normaliser reads most of them by their shape
 * (log-prefix.ts, unwrap.ts), and those it does not read stay here as its limits.
 */

export interface Carrier {
  name: string;
  /** `line`: applied to single-line pastes; `trace`: to tracebacks. */
  form: 'line' | 'trace';
  wrap: (paste: string) => string;
}

const everyLine = (prefix: string) => (p: string) =>
  p
    .split('\n')
    .map((l) => `${prefix}${l}`)
    .join('\n');

export const CARRIERS: Carrier[] = [
  // Log formats and process managers
  { name: 'log4j', form: 'line', wrap: (m) => `2026-12-01 10:01:02,123 ERROR [main] com.example.shop.Cart - ${m}` },
  { name: 'logback', form: 'line', wrap: (m) => `10:01:02.123 [http-nio-8080-exec-1] ERROR c.e.s.Cart - ${m}` },
  { name: 'Spring Boot', form: 'line', wrap: (m) => `2026-12-01T10:01:02.123+01:00 ERROR 4121 --- [shop] [           main] o.s.boot.SpringApplication               : ${m}` },
  { name: 'gunicorn', form: 'line', wrap: (m) => `[2026-12-01 10:01:02 +0000] [4121] [ERROR] ${m}` },
  { name: 'Celery', form: 'line', wrap: (m) => `[2026-12-01 10:01:02,123: ERROR/ForkPoolWorker-1] ${m}` },
  { name: 'Heroku', form: 'line', wrap: (m) => `2026-12-01T10:01:02.000000+00:00 app[web.1]: ${m}` },
  { name: 'nginx', form: 'line', wrap: (m) => `2026/12/01 10:01:02 [error] 4121#4121: *1 ${m}` },
  { name: 'syslog RFC 5424', form: 'line', wrap: (m) => `<11>1 2026-12-01T10:01:02.003Z host1 shop 4121 ID47 - ${m}` },
  { name: 'pm2', form: 'line', wrap: (m) => `0|api      | ${m}` },
  { name: 'logcat', form: 'line', wrap: (m) => `12-01 10:01:02.123  4121  4133 E AndroidRuntime: ${m}` },
  { name: 'Docker json-file', form: 'line', wrap: (m) => JSON.stringify({ log: `${m}\n`, stream: 'stderr', time: '2026-12-01T10:01:02.1Z' }) },
  // An HTTP API's error body, as curl or the browser shows it (Django REST framework, FastAPI).
  { name: 'JSON error body', form: 'line', wrap: (m) => JSON.stringify({ detail: m }) },
  { name: 'log4j, every line of a trace', form: 'trace', wrap: everyLine('2026-12-01 10:01:02,123 ERROR [main] com.example.shop.Cart - ') },
  // A failed step of a GitHub Actions job as its log shows it: a timestamp on every line, the runner's annotation last.
  { name: 'GitHub Actions, a failed step', form: 'trace', wrap: (t) => everyLine('2026-12-01T10:01:02.1234567Z ')(`${t}\n##[error]Process completed with exit code 1.`) },
  { name: 'GitHub Actions, an annotation', form: 'line', wrap: (m) => `2026-12-01T10:01:02.1234567Z ##[error]${m}` },
  // A log that indents every line of a trace by a tab (Scrapy's, Twisted's), the paste trimmed.
  { name: 'every line indented by a tab, trimmed', form: 'trace', wrap: (t) => everyLine('\t')(t).trim() },
  // Runtimes and command-line tools
  // Twisted's Failure marks where the error was caught among the frames.
  { name: 'Twisted Failure', form: 'trace', wrap: (t) => {
    const lines = t.split('\n');
    return [...lines.slice(0, 3), '--- <exception caught here> ---', ...lines.slice(3)].join('\n');
  } },
  { name: '.NET, unhandled', form: 'line', wrap: (m) => `Unhandled exception. System.InvalidOperationException: ${m}\n   at Shop.Cart.Add(Item item) in /src/Shop/Cart.cs:line 42` },
  { name: 'PHP, uncaught', form: 'line', wrap: (m) => `PHP Fatal error:  Uncaught RuntimeException: ${m} in /var/www/app/src/Cart.php:42` },
  { name: 'Rust panic', form: 'line', wrap: (m) => `thread 'main' panicked at src/cart.rs:42:5:\n${m}\nnote: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace` },
  { name: 'Rust panic, before 1.73', form: 'line', wrap: (m) => `thread 'main' panicked at '${m}', src/cart.rs:42:5` },
  { name: 'Rust panic, before 1.73, without its place', form: 'line', wrap: (m) => `thread 'tokio-runtime-worker' panicked at '${m}'` },
  { name: 'Elixir', form: 'line', wrap: (m) => `** (RuntimeError) ${m}\n    (shop 0.1.0) lib/cart.ex:42: Shop.Cart.add/1` },
  { name: 'Swift 5.3 on', form: 'line', wrap: (m) => `Shop/Cart.swift:42: Fatal error: ${m}` },
  { name: 'Swift', form: 'line', wrap: (m) => `Fatal error: ${m}: file Shop/Cart.swift, line 42` },
  { name: 'browser console', form: 'line', wrap: (m) => `Uncaught (in promise) Error: ${m}\n    at Cart.add (cart.js:42:11)` },
  { name: 'Next.js', form: 'line', wrap: (m) => ` ⨯ TypeError: ${m}` },
  { name: 'esbuild', form: 'line', wrap: (m) => `✘ [ERROR] ${m}` },
  { name: 'npm', form: 'line', wrap: (m) => `npm ERR! ${m}` },
  { name: 'Python warning', form: 'line', wrap: (m) => `/app/shop/cart.py:42: UserWarning: ${m}` },
  { name: 'docker CLI', form: 'line', wrap: (m) => `docker: Error response from daemon: ${m}.` },
  { name: 'kubectl', form: 'line', wrap: (m) => `Error from server (BadRequest): ${m}` },
  { name: 'Terraform', form: 'line', wrap: (m) => `╷\n│ Error: ${m}\n│\n╵` },
  // Where people copy from
  { name: 'Markdown inline code', form: 'line', wrap: (m) => `\`${m}\`` },
  { name: 'Markdown quote', form: 'trace', wrap: everyLine('> ') },
  { name: 'Markdown code fence', form: 'trace', wrap: (t) => `\`\`\`python\n${t}\n\`\`\`` },
  { name: 'list item', form: 'line', wrap: (m) => `- ${m}` },
  { name: 'HTML escapes', form: 'line', wrap: (m) => m.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;') },
  { name: 'JSON string', form: 'trace', wrap: (t) => JSON.stringify(t) },
  { name: 'line breaks escaped', form: 'trace', wrap: (t) => t.replace(/\n/g, '\\n') },
  { name: 'URL-encoded', form: 'line', wrap: (m) => encodeURIComponent(m) },
  // Changed by hand or by a tool on the way
  // A library's note after every message it raises, pointing to its documentation (SQLAlchemy's).
  { name: 'a link to documentation after it', form: 'line', wrap: (m) => `${m} (Background on this error at: https://sqlalche.me/e/20/bhk3)` },
  // An error another wraps, its class in parentheses (SQLAlchemy's StatementError and DBAPIError), the statement on the next line.
  { name: 'wrapped by another error', form: 'line', wrap: (m) => {
    const named = /^([A-Za-z_][\w.]*): (.*)$/s.exec(m);
    return `sqlalchemy.exc.StatementError: (${named ? `app.${named[1]}` : 'app.errors.Error'}) ${named ? named[2] : m}\n[SQL: SELECT 1]`;
  } },
  // A stack trace flattened onto the message's line, as issues and trackers copy it in one line.
  { name: 'stack flattened after it', form: 'line', wrap: (m) => `${m} at Cart.add (/app/src/cart.js:42:11) at process.processTicksAndRejections (node:internal/process/task_queues:95:5)` },
  { name: 'lower case', form: 'line', wrap: (m) => m.toLowerCase() },
  { name: 'cut in the middle (…)', form: 'line', wrap: (m) => {
    const w = m.split(' ');
    return w.length < 8 ? m : [...w.slice(0, 3), '…', ...w.slice(5)].join(' ');
  } },
];
