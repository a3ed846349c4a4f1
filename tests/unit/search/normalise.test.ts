import { describe, expect, it } from 'vitest';
import { cleanText, joinWrappedLines, normalisePaste, splitClassPrefix, stripLogPrefix, withoutGroupBoxes, withoutGutter } from '../../../src/search/normalise.ts';

/** The first message a paste yields: [message, class]. */
const first = (paste: string): [string | undefined, string | null | undefined] => {
  const m = normalisePaste(paste).messages[0];
  return [m?.text, m?.errorClass];
};

describe('normalisePaste on real-looking pastes', () => {
  it.each([
    ['a bare message', 'expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['a class prefix', 'ValueError: expected 1 frame, got 3', 'expected 1 frame, got 3', 'ValueError'],
    ['a qualified class', 'vllm.distributed.HandshakeError: unexpected frame! x', 'unexpected frame! x', 'vllm.distributed.HandshakeError'],
    ['ANSI colours', '\u001b[1;31mERROR\u001b[0m: \u001b[33mexpected 1 frame, got 3\u001b[0m', 'expected 1 frame, got 3', null],
    ['ANSI that lost its ESC byte', '[31mexpected 1 frame, got 3[0m', 'expected 1 frame, got 3', null],
    ['an ISO timestamp and level', '2026-08-14T21:17:39.825Z ERROR expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['a vLLM log line', 'ERROR 08-14 21:17:39 [engine.py:123] expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['Python logging default', 'ERROR:vllm.engine:expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['a level and logger name', '2026-08-14 21:17:39,825 WARN vllm.engine.core: expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['env_logger', '[2026-08-14T21:17:39Z ERROR my_crate::net] expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['Go log', '2026/08/14 21:17:39 expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['syslog', 'Aug 14 21:17:39 web-1 app[4242]: expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['glog', 'E0814 21:17:39.825012  1234 server.cc:88] expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['a Ray actor prefix', '(EngineCore_0 pid=1234) ERROR 08-14 21:17:39 [core.py:12] expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['Python logging with dashes', '2026-08-14 21:17:39,825 - vllm.engine - ERROR - expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['logfmt (logrus, slog)', 'time="2026-08-14T21:17:39Z" level=error msg="expected 1 frame, got \\"3\\""', 'expected 1 frame, got "3"', null],
    ['JSON logs (zap, pino)', '{"level":"error","ts":1755206259.8,"msg":"expected 1 frame, got 3"}', 'expected 1 frame, got 3', null],
    ['docker compose', 'api-1  | [ERROR] expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['a pid and module', '[1234] [net.socket] expected 1 frame, got 3', 'expected 1 frame, got 3', null],
    ['smart quotes', 'invalid value \u2018abc\u2019 for \u201cname\u201d', 'invalid value \'abc\' for "name"', null],
    ['a progress bar redraw', 'loading 10%\rloading 100%\rexpected 1 frame, got 3', 'expected 1 frame, got 3', null],
  ])('%s', (_name, paste, message, cls) => {
    expect(first(paste)).toEqual([message, cls]);
  });

  it('picks the error line out of a Python traceback', () => {
    const paste = `Traceback (most recent call last):
  File "/app/serve.py", line 12, in <module>
    main()
  File "/app/serve.py", line 8, in main
    raise ValueError(f"expected 1 frame, got {n}")
ValueError: expected 1 frame, got 3`;
    expect(first(paste)).toEqual(['expected 1 frame, got 3', 'ValueError']);
    expect(normalisePaste(paste).traceback).toBe(true);
  });

  it('keeps both errors of a chained Python traceback, the one raised last first', () => {
    const paste = `Traceback (most recent call last):
  File "a.py", line 2, in f
    g()
KeyError: 'frame'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "a.py", line 4, in <module>
    f()
RuntimeError: could not load frame 'frame'`;
    const messages = normalisePaste(paste).messages.map((m) => m.text);
    expect(messages).toEqual(["could not load frame 'frame'", 'frame']);
    // Copied from the first error line on: it is still read, as the cause.
    const cut = paste.slice(paste.indexOf('KeyError'));
    expect(normalisePaste(cut).messages.map((m) => m.text)).toEqual(["could not load frame 'frame'", 'frame']);
  });

  it('reads the message inside the quotes a KeyError prints around it', () => {
    expect(first("KeyError: 'frame 9 not found in buffer 3'")).toEqual(['frame 9 not found in buffer 3', 'KeyError']);
    expect(first('"quoted" and more "quoted"')[0]).toBe('"quoted" and more "quoted"');
  });

  it('reads each traceback of a Python exception group, nested groups too', () => {
    const paste = `  + Exception Group Traceback (most recent call last):
  |   File "/app/main.py", line 10, in main
  |     async with asyncio.TaskGroup() as tg:
  | ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/app/main.py", line 5, in work
    |     raise KeyError(name)
    | KeyError: 'frame 9 not found'
    +---------------- 2 ----------------
    | Exception Group Traceback (most recent call last):
    |   File "/app/main.py", line 7, in other
    | ExceptionGroup: inner (1 sub-exception)
    +-+---------------- 1 ----------------
      | Traceback (most recent call last):
      |   File "/app/main.py", line 3, in f
      | ValueError: expected 1 frame, got 3
      +------------------------------------`;
    const pasted = normalisePaste(paste);
    expect(pasted.traceback).toBe(true);
    const messages = pasted.messages.map((m) => [m.text, m.errorClass]);
    expect(messages).toContainEqual(['frame 9 not found', 'KeyError']);
    expect(messages).toContainEqual(['expected 1 frame, got 3', 'ValueError']);
    expect(pasted.frames.map((f) => f.line)).toEqual(expect.arrayContaining([5, 3]));
    // A paste without a group's header keeps its bars.
    expect(withoutGroupBoxes(['| name | value |', '| --- | --- |'])).toEqual(['| name | value |', '| --- | --- |']);
  });

  it('reads a message without the stack trace flattened after it on its line', () => {
    const texts = (p: string) => normalisePaste(p).messages.map((m) => m.text);
    expect(texts('QueryRunnerAlreadyReleasedError: Query runner already released. at PostgresQueryRunner.query (/app/node_modules/typeorm/driver/postgres/PostgresQueryRunner.js:173:19) at SelectQueryBuilder.loadRawResults')).toContain('Query runner already released.');
    expect(texts('TypeError: x is not a function at /app/index.js:3:7')).toContain('x is not a function');
    expect(texts('java.lang.IllegalStateException: closed at org.acme.Store.save(Store.java:12) at org.acme.Main.main(Main.java:3)')).toContain('closed');
    // Words that only look like it stay: no frame after ` at `, a time is no place.
    expect(texts('Error: failed at step 3 (build)')).toEqual(['failed at step 3 (build)']);
    expect(texts('Error: Job failed at 10:30:45')).toEqual(['Job failed at 10:30:45']);
    expect(texts('Error: Token expired at 2024-05-01T10:00:00')).toEqual(['Token expired at 2024-05-01T10:00:00']);
    expect(texts('Error: x is not a function at process.tick (node:internal/process/task_queues:95:5)')).toContain('x is not a function');
  });

  it("reads a Twisted Failure's traceback, past its `--- <exception caught here> ---` mark", () => {
    const paste = `Traceback (most recent call last):
  File "/app/scrapy/middleware.py", line 62, in _process_chain
    return process_chain(self.methods[methodname], obj, *args)
--- <exception caught here> ---
  File "/venv/lib/python3.12/site-packages/httpx/_models.py", line 638, in content
    raise ResponseNotRead()
httpx.ResponseNotRead: Attempted to access streaming response content.`;
    expect(first(paste)).toEqual(['Attempted to access streaming response content.', 'httpx.ResponseNotRead']);
    expect(normalisePaste(paste).messages.some((m) => m.text.includes('exception caught here'))).toBe(false);
    // Every line indented by a tab, as a log wrote it, and the paste trimmed: only the header lost it.
    expect(first(paste.split('\n').map((l) => `\t${l}`).join('\n').trim())).toEqual(['Attempted to access streaming response content.', 'httpx.ResponseNotRead']);
    // Cut before its exception line, a trace has none (a frame is not one).
    expect(normalisePaste('Traceback (most recent call last):\n\t  File "a.py", line 3, in f\n\t    g()').traceback).toBe(false);
  });

  it('reads a Python 3.11 traceback with carets', () => {
    const paste = `Traceback (most recent call last):
  File "x.py", line 3, in <module>
    print(items[5])
          ~~~~~^^^
IndexError: list index out of range`;
    expect(first(paste)).toEqual(['list index out of range', 'IndexError']);
  });

  it('reads a message without the link to documentation a library puts after it, and with it', () => {
    const texts = (p: string) => normalisePaste(p).messages.map((m) => [m.text, m.errorClass]);
    const line = 'sqlalchemy.exc.InvalidRequestError: Cannot instantiate a TypedColumns object. (Background on this error at: https://sqlalche.me/e/20/bhk3)';
    expect(texts(line).slice(0, 2)).toEqual([
      ['Cannot instantiate a TypedColumns object. (Background on this error at: https://sqlalche.me/e/20/bhk3)', 'sqlalchemy.exc.InvalidRequestError'],
      ['Cannot instantiate a TypedColumns object.', 'sqlalchemy.exc.InvalidRequestError'],
    ]);
    expect(texts('Error: request failed (see https://example.com/errors/E42).').map(([t]) => t)).toContain('request failed');
    // Parentheses without a link, or a link that is the whole message, stay as they are.
    expect(texts('Error: cannot read config (file missing)').map(([t]) => t)).toEqual(['cannot read config (file missing)']);
    expect(texts('(https://example.com/x)').map(([t]) => t)).toEqual(['(https://example.com/x)']);
  });

  it('reads first the error another wraps, by its own class (SQLAlchemy: `(psycopg2.OperationalError) …`), without the statement older versions print after it', () => {
    const read = (p: string) => normalisePaste(p).messages.map((m) => [m.text, m.errorClass]);
    const wrapped = read("sqlalchemy.exc.StatementError: (sqlalchemy.exc.PendingRollbackError) Can't reconnect until invalid transaction is rolled back. (Background on this error at: https://sqlalche.me/e/20/8s2b)");
    expect(wrapped.slice(0, 2)).toEqual([
      ["Can't reconnect until invalid transaction is rolled back. (Background on this error at: https://sqlalche.me/e/20/8s2b)", 'PendingRollbackError'],
      ["Can't reconnect until invalid transaction is rolled back.", 'PendingRollbackError'],
    ]);
    // The wrapper's own line is read too.
    expect(wrapped.map(([t]) => t)).toContain("(sqlalchemy.exc.PendingRollbackError) Can't reconnect until invalid transaction is rolled back. (Background on this error at: https://sqlalche.me/e/20/8s2b)");
    expect(read("StatementError: (sqlalchemy.exc.InvalidRequestError) Can't reconnect until invalid transaction is rolled back [SQL: u'SELECT 1'] [parameters: [{}]]")[0]).toEqual([
      "Can't reconnect until invalid transaction is rolled back",
      'InvalidRequestError',
    ]);
    // A parenthesised word that is no dotted class stays part of the message.
    expect(read('Error: (draft) cannot publish the page')[0]).toEqual(['(draft) cannot publish the page', null]);
  });

  it("reads a Swift trap, its place before it (Swift 5.3 on) or after it (before)", () => {
    const read = (p: string) => normalisePaste(p).messages.map((m) => [m.text, m.errorClass]);
    expect(read('MyApp/Cart.swift:42: Fatal error: Unexpectedly found nil while unwrapping an Optional value')[0]).toEqual(['Unexpectedly found nil while unwrapping an Optional value', 'fatal error']);
    expect(read('Swift/ContiguousArrayBuffer.swift:600: Precondition failed: Index out of range')[0]).toEqual(['Index out of range', 'fatal error']);
    expect(read('Fatal error: Index out of range: file Swift/ContiguousArrayBuffer.swift, line 600')).toContainEqual(['Index out of range', 'fatal error']);
    expect(read('Assertion failed: cart is empty: file MyApp/Cart.swift, line 7')).toContainEqual(['cart is empty', 'fatal error']);
    // Go's stays a panic.
    expect(read('fatal error: all goroutines are asleep - deadlock!')[0]).toEqual(['all goroutines are asleep - deadlock!', 'panic']);
  });

  it('reads a Rust panic (new and old formats) and an anyhow error chain', () => {
    expect(first(`thread 'main' panicked at src/main.rs:2:5:\nexpected 1 frame, got 3\nnote: run with \`RUST_BACKTRACE=1\``)).toEqual(['expected 1 frame, got 3', 'panic']);
    expect(first(`thread 'tokio-runtime-worker' panicked at 'expected 1 frame, got 3', src/lib.rs:10:9`)).toEqual(['expected 1 frame, got 3', 'panic']);
    // The older form copied without its location, or cut after the comma; a quote inside the message stays.
    expect(first(`thread 'tokio-runtime-worker' panicked at 'expected 1 frame, got 3'`)).toEqual(['expected 1 frame, got 3', 'panic']);
    expect(first(`thread 'main' panicked at 'no key 'id' in row',`)).toEqual(["no key 'id' in row", 'panic']);
    const chain = normalisePaste(`Error: failed to start engine\n\nCaused by:\n    0: could not bind socket 7\n    1: address in use`).messages.map((m) => m.text);
    expect(chain).toContain('could not bind socket 7');
    expect(chain).toContain('address in use');
  });

  it('reads a Go panic with its goroutine dump', () => {
    const paste = `panic: runtime error: index out of range [5] with length 3

goroutine 1 [running]:
main.main()
\t/tmp/x.go:8 +0x1d
exit status 2`;
    expect(first(paste)).toEqual(['runtime error: index out of range [5] with length 3', 'panic']);
  });

  it('reads Java and Kotlin stack traces with causes', () => {
    const paste = `Exception in thread "main" java.lang.IllegalStateException: socket is closed
\tat org.example.Conn.send(Conn.java:42)
\tat org.example.Main.main(Main.java:7)
Caused by: java.io.IOException: broken pipe
\tat org.example.Conn.write(Conn.java:80)
\t... 2 more`;
    const messages = normalisePaste(paste).messages;
    expect(messages.map((m) => [m.text, m.errorClass])).toEqual([
      ['socket is closed', 'java.lang.IllegalStateException'],
      ['broken pipe', 'java.io.IOException'],
    ]);
  });

  it('reads Node errors: uncaught, with frames, and after the caret of the throwing line', () => {
    expect(first(`Uncaught TypeError: Cannot read properties of undefined (reading 'id')`)).toEqual(["Cannot read properties of undefined (reading 'id')", 'TypeError']);
    const node = `/app/index.js:3
    throw new RangeError(\`size \${n} exceeds the maximum of 10\`);
    ^

RangeError: size 12 exceeds the maximum of 10
    at Object.<anonymous> (/app/index.js:3:11)
    at Module._compile (node:internal/modules/cjs/loader:1554:14)

Node.js v24.1.0`;
    expect(first(node)).toEqual(['size 12 exceeds the maximum of 10', 'RangeError']);
    expect(first(`Error [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string\n    at new NodeError (node:internal/errors:405:5)`)).toEqual([
      'The "path" argument must be of type string',
      'Error',
    ]);
  });

  it('reads Ruby errors, with old and new quoting', () => {
    expect(first(`app.rb:12:in 'parse': invalid byte sequence (ArgumentError)\n\tfrom app.rb:3:in '<main>'`)).toEqual(['invalid byte sequence', 'ArgumentError']);
    expect(first("app.rb:12:in `parse': invalid byte sequence (ArgumentError)")).toEqual(['invalid byte sequence', 'ArgumentError']);
  });

  it('reads a C++ terminate message', () => {
    expect(first(`terminate called after throwing an instance of 'std::runtime_error'\n  what():  expected 1 frame, got 3\nAborted (core dumped)`)).toEqual([
      'expected 1 frame, got 3',
      'std::runtime_error',
    ]);
  });

  it('joins a message the terminal wrapped at its width', () => {
    const message = 'unsupported auxiliary frame(s): expected 1 frame, got 3 while reading from the engine core socket';
    const wrapped = `${message.slice(0, 40)}\n${message.slice(40, 80)}\n${message.slice(80)}`;
    expect(first(wrapped)).toEqual([message, null]);
    // Wrapped after a log prefix: the prefixed first line is the full width.
    const logged = `2026-08-14T21:17:39Z ERROR ${message}`;
    expect(first(`${logged.slice(0, 50)}\n${logged.slice(50, 100)}\n${logged.slice(100)}`)).toEqual([message, null]);
  });

  it('also reads a line wrapped between two punctuation or digit characters as one', () => {
    const message = 'subscriber count mismatch: 686ms != http://10.0.8.93:8000/v1/engine (in snapshot file)';
    const logged = `Aug 14 21:17:39 node-9 framed[12150]: ${message}`;
    const at = logged.indexOf('.93:');
    const messages = normalisePaste(`${logged.slice(0, at)}\n${logged.slice(at)}`).messages.map((m) => m.text);
    expect(messages).toContain(message);
    // The lines as they are come first: two separate lines can break there too.
    expect(messages[0]).toBe('subscriber count mismatch: 686ms != http://10.0.8');
  });

  it('does not join an indented line or a note to the line before, even when both are the widest', () => {
    const cpp = "terminate called after throwing an instance of 'std::invalid_argument'\n  what():  unknown object.value_count: http://10.0.0.210:8000/v1/queue\nAborted (core dumped)";
    expect(first(cpp)).toEqual(['unknown object.value_count: http://10.0.0.210:8000/v1/queue', 'std::invalid_argument']);
    const rust = "thread 'main' panicked at src/cache.rs:211:38:\ncount_schema_callback /var/lib/token/shard_42.bin is not supported by rank_config_literal\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace";
    expect(first(rust)[0]).toBe('count_schema_callback /var/lib/token/shard_42.bin is not supported by rank_config_literal');
  });

  it('does not join lines that start a new log entry or frame', () => {
    const lines = ['x'.repeat(50), '    at foo (a.js:1:1)', 'y'.repeat(50), 'Caused by: z'];
    expect(joinWrappedLines(lines)).toEqual(lines);
  });

  it('does not join two lines that merely print as long: the last line is no evidence of a wrap', () => {
    // A Rust panic's location line and its message, 59 characters each.
    const header = "thread 'main' panicked at tokio/src/runtime/handle.rs:90:5:";
    const message = 'The Tokio context thread-local variable has been destroyed.';
    expect(header.length).toBe(message.length);
    expect(joinWrappedLines([header, message])).toEqual([header, message]);
    expect(first(`${header}\n${message}`)[0]).toBe(message);
    // A wrap at a fixed width still joins when two lines before the last are that wide.
    const wrapped = ['a'.repeat(60), 'b'.repeat(60), 'end of the message'];
    expect(joinWrappedLines(wrapped)).toEqual([wrapped.join('')]);
  });

  it('does not join an exception line to the frame before it, when that frame is the widest line', () => {
    const frame = '  File "/usr/lib/python3/vllm/distributed/kv_transfer/kv_connector/v1/base.py", line 694, in set_xfer_handshake_metadata_pp_aware';
    const error = 'ValueError: NixlConnectorWorker received pp_rank > 0 handshake metadata but does not support PP-disaggregated KV transfer.';
    expect(joinWrappedLines([frame, error])).toEqual([frame, error]);
    expect(first(`Traceback (most recent call last):\n${frame}\n\u001b[1;31m${error}\u001b[0m`)).toEqual([error.slice('ValueError: '.length), 'ValueError']);
    expect(first(`${frame}\n${error}`)).toEqual([error.slice('ValueError: '.length), 'ValueError']);
  });

  it('reads a paste copied out of Markdown, a page, a JSON log or an address', () => {
    const trace = 'Traceback (most recent call last):\n  File "/app/x.py", line 3, in f\n    g()\nKeyError: \'frame 9 not found\'';
    // Inline code, a code fence around a trace, a quote on every line, a list's bullet.
    expect(first("`KeyError: 'frame 9 not found'`")).toEqual(['frame 9 not found', 'KeyError']);
    expect(first("``Argument `id` is undefined``")).toEqual(['Argument `id` is undefined', null]);
    expect(first('```python\n' + trace + '\n```')).toEqual(['frame 9 not found', 'KeyError']);
    expect(first(trace.split('\n').map((l) => `> ${l}`).join('\n'))).toEqual(['frame 9 not found', 'KeyError']);
    expect(first('- ValueError: expected 1 frame, got 3')).toEqual(['expected 1 frame, got 3', 'ValueError']);
    // HTML's escapes, once: `&amp;lt;` is the text `&lt;`.
    expect(first('ValueError: Can&#39;t read &quot;x&quot; &amp;lt;')).toEqual(['Can\'t read "x" &lt;', 'ValueError']);
    // A JSON string, and a trace whose line breaks were escaped, whole; a Rust panic's too.
    expect(first(JSON.stringify(trace))).toEqual(['frame 9 not found', 'KeyError']);
    expect(first(trace.replace(/\n/g, '\\n'))).toEqual(['frame 9 not found', 'KeyError']);
    expect(first("thread 'main' panicked at src/main.rs:3:5:\\nindex out of bounds")).toEqual(['index out of bounds', 'panic']);
    // One URL-encoded string.
    expect(first('ValueError%3A%20expected%201%20frame%2C%20got%203')).toEqual(['expected 1 frame, got 3', 'ValueError']);
    expect(first('ValueError%3A+expected+1+frame')).toEqual(['expected 1 frame', 'ValueError']);
  });

  it("also reads a Python exception's repr ending a line, a message quoted in a sentence, and the error a structured log line carries", () => {
    const messages = (paste: string) => normalisePaste(paste).messages.map((m) => [m.text, m.errorClass]);
    // Celery, asyncio, a logged %r; the repr's escapes undone.
    expect(messages("[2026-12-05 10:01:02,123: ERROR/ForkPoolWorker-1] Task app.sync[3f2a] raised unexpected: InvalidRequestError('query() can only be used against a single mapped class.')")).toContainEqual(['query() can only be used against a single mapped class.', 'InvalidRequestError']);
    expect(messages("Task exception was never retrieved\nfuture: <Task finished name='Task-2' coro=<main() done> exception=KeyError(\"frame 'x' not found\")>")).toContainEqual(["frame 'x' not found", 'KeyError']);
    expect(messages("sync failed: ValueError('can\\'t parse 7')")).toContainEqual(["can't parse 7", 'ValueError']);
    // Among many log lines, as one of the first messages read.
    const noise = Array.from({ length: 20 }, (_, i) => `[2026-12-05 10:01:0${i % 10},123: INFO/MainProcess] Task app.sync[${i}] received`);
    expect(normalisePaste([...noise, "[2026-12-05 10:01:02,123: ERROR/ForkPoolWorker-1] Task app.sync[7] raised unexpected: KeyError('frame 9')"].join('\n')).messages.slice(0, 3)).toContainEqual({ text: 'frame 9', errorClass: 'KeyError', withPrefix: 'KeyError: frame 9' });
    // Not a class, several arguments, or not at the line's end: no reading of its own.
    for (const line of ["print('hello')", "ValueError('a', 'b')", "ValueError('x') was raised"]) expect(messages(line).map(([, c]) => c), line).not.toContain('ValueError');
    // A message quoted in a sentence about it, between double quotes or backticks; short quoted values are not.
    expect(messages(`I get this error when uploading: "Multipart file uploads require 'io.BytesIO', not 'io.StringIO'." any idea?`)).toContainEqual(["Multipart file uploads require 'io.BytesIO', not 'io.StringIO'.", null]);
    expect(messages('after upgrading, `TypeError: Cannot read properties of undefined` on start')).toContainEqual(['Cannot read properties of undefined', 'TypeError']);
    expect(messages('the "name" field is "x"')).toEqual([['the "name" field is "x"', null]]);
    // Rust tracing: the error as an unquoted field after the message, alone or with fields after it.
    const timer = 'timer error: No such file or directory (os error 2)';
    expect(messages(`2026-12-05T10:01:02.123456Z ERROR my_app: task failed error=${timer}`)).toContainEqual([timer, null]);
    expect(messages(`2026-12-05T10:01:02.123456Z ERROR my_app: task failed error=${timer} request_id=42`)).toContainEqual([timer, null]);
    // zap and logrus: the message says what failed, the error field what the error was.
    const error = "sqlalchemy.exc.NoSuchColumnError: Could not locate column in row for column 'users.id'";
    expect(messages(JSON.stringify({ level: 'error', msg: 'task failed', error }))).toContainEqual(["Could not locate column in row for column 'users.id'", 'sqlalchemy.exc.NoSuchColumnError']);
    expect(messages(`time=2026-12-05T10:01:02Z level=error msg="task failed" error="${error}"`)).toContainEqual(["Could not locate column in row for column 'users.id'", 'sqlalchemy.exc.NoSuchColumnError']);
    // A traceback logged whole, in the error field or as the message: read as one, its breaks as JSON gives them.
    const trace = `Traceback (most recent call last):\n  File "/app/x.py", line 3, in f\n    g()\n${error}\n`;
    expect(messages(JSON.stringify({ level: 'error', message: 'task failed', exception: trace }))[0]).toEqual(["Could not locate column in row for column 'users.id'", 'sqlalchemy.exc.NoSuchColumnError']);
    for (const line of [JSON.stringify({ log: trace, stream: 'stderr' }), JSON.stringify({ level: 'error', msg: trace })]) {
      const pasted = normalisePaste(line);
      expect(pasted.traceback, line).toBe(true);
      expect(pasted.messages[0]).toMatchObject({ text: "Could not locate column in row for column 'users.id'", errorClass: 'sqlalchemy.exc.NoSuchColumnError' });
      expect(pasted.frames[0]).toMatchObject({ path: '/app/x.py', line: 3 });
    }
  });

  it('reads a paste whose every line an editor, a log viewer or `cat -n` numbered', () => {
    const trace = ['Traceback (most recent call last):', '  File "/app/x.py", line 3, in f', '    g()', "KeyError: 'frame 9 not found'"];
    for (const numbered of [trace.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`), trace.map((l, i) => `${i + 101} ${l}`), trace.map((l, i) => `${i + 7} | ${l}`)]) {
      const pasted = normalisePaste(numbered.join('\n'));
      expect(pasted.traceback, numbered[0]).toBe(true);
      expect(pasted.messages[0]).toMatchObject({ text: 'frame 9 not found', errorClass: 'KeyError' });
      expect(pasted.frames[0]).toMatchObject({ path: '/app/x.py', line: 3, fn: 'f' });
    }
    // Numbers that do not count up line by line, or a Rust backtrace's, are the paste's own.
    expect(withoutGutter(['1 a', '3 b', '4 c'])).toEqual(['1 a', '3 b', '4 c']);
    expect(withoutGutter(['   0: rust_begin_unwind', '   1: core::panicking::panic_fmt', '   2: app::main'])[0]).toBe('   0: rust_begin_unwind');
  });

  it('reads an Elixir exception, its class in parentheses', () => {
    expect(first('** (RuntimeError) expected 1 frame, got 3\n    (shop 0.1.0) lib/cart.ex:42: Shop.Cart.add/1')).toEqual(['expected 1 frame, got 3', 'RuntimeError']);
  });

  it('leaves what only looks like those alone', () => {
    // Backticks that belong to the message; a Windows path's `\n`; a percent sign in a sentence.
    expect(first('`a` is not `b`')).toEqual(['`a` is not `b`', null]);
    expect(first('OSError: cannot open C:\\new\\node_modules\\x')).toEqual(['cannot open C:\\new\\node_modules\\x', 'OSError']);
    expect(first('disk 95%20 full')).toEqual(['disk 95%20 full', null]);
  });

  it('keeps the ends of a 1 MB paste and returns promptly', () => {
    const noise = 'DEBUG 08-14 21:17:39 [x.py:1] heartbeat ok\n'.repeat(25_000);
    const paste = `${noise}Traceback (most recent call last):\n  File "a.py", line 1, in <module>\nValueError: expected 1 frame, got 3\n`;
    expect(paste.length).toBeGreaterThan(1_000_000);
    expect(first(paste)).toEqual(['expected 1 frame, got 3', 'ValueError']);
    expect(first('a'.repeat(1_000_000))[0]!.length).toBeLessThanOrEqual(4_000);
  });

  it("reads no message from a compiler's code frame: its source lines and the labels under them", () => {
    const rustc = [
      "error[E0599]: no method named `frobnicate` found for struct `Vec<u8>` in the current scope",
      ' --> src/main.rs:4:7',
      '  |',
      '4 |     v.frobnicate();',
      '  |       ^^^^^^^^^^ method not found in `Vec<u8>`',
    ].join('\n');
    const texts = normalisePaste(rustc).messages.map((m) => m.text);
    // The location arrow starts a line of its own: the message is not read as wrapped into it.
    expect(texts).toContain('no method named `frobnicate` found for struct `Vec<u8>` in the current scope');
    expect(texts.filter((t) => /not found in|frobnicate\(\)|-->/.test(t))).toEqual([]);
    // gcc's frame (a numbered line, then `|` and the marker) and Babel's (`>` marks the line).
    const gcc = "src/parser.c:118:22: error: 'struct token' has no member named 'kind'\n  118 |     if (tok->kind == TOK_EOF)\n      |              ^~~~ did you mean 'kinds'?";
    expect(normalisePaste(gcc).messages.map((m) => m.text).filter((t) => /TOK_EOF|did you mean/.test(t))).toEqual([]);
    const babel = 'Unexpected token, expected "," (12:4)\n  11 |       <Main />\n> 12 |     </div\n     |     ^ Unexpected token';
    expect(normalisePaste(babel).messages.map((m) => m.text)).toEqual(['Unexpected token, expected "," (12:4)']);
    // A bar of a log's own (docker compose's service column) is no code frame.
    expect(first('api-1  | expected 1 frame, got 3')).toEqual(['expected 1 frame, got 3', null]);
  });

  it('gives nothing for a blank paste', () => {
    expect(normalisePaste('  \n\t\n').messages).toEqual([]);
  });
});

describe('the pieces', () => {
  it('cleanText removes escapes and invisible characters and plain-ASCIIs quotes and spaces', () => {
    expect(cleanText('\u001b]8;;http://x\u0007link\u001b]8;;\u0007 \u201cq\u201d\u00a0\u200bx\r\ny')).toBe('link "q" x\ny');
  });

  it('stripLogPrefix drops a logger or thread name between the level and a class', () => {
    expect(stripLogPrefix("2026-11-30T10:01:02Z ERROR worker-3 KeyError: cannot rollback shard 'x'")).toBe("KeyError: cannot rollback shard 'x'");
    expect(stripLogPrefix('[12:01:02] WARN main ValueError: bad frame')).toBe('ValueError: bad frame');
    // Or a Python traceback's header, after a module or not.
    expect(stripLogPrefix('2026-11-30T15:21:07Z ERROR worker-1 [vllm.distributed.kv_transfer] Traceback (most recent call last):')).toBe('Traceback (most recent call last):');
    expect(stripLogPrefix('ERROR MainThread Traceback (most recent call last):')).toBe('Traceback (most recent call last):');
    // Without a class or traceback after it, a word after the level is the message's own.
    expect(stripLogPrefix('ERROR worker-3 exceeds the maximum of 4')).toBe('worker-3 exceeds the maximum of 4');
    expect(stripLogPrefix('ERROR Invalid [config.yaml] value')).toBe('Invalid [config.yaml] value');
    // Nor without a level or time before it.
    expect(stripLogPrefix('failed with KeyError: frame')).toBe('failed with KeyError: frame');
  });

  it('stripLogPrefix leaves a message that merely starts like a prefix', () => {
    expect(stripLogPrefix('error: could not compile')).toBe('could not compile');
    expect(stripLogPrefix('3 frames expected')).toBe('3 frames expected');
    expect(stripLogPrefix('timeout waiting for frame')).toBe('timeout waiting for frame');
    expect(stripLogPrefix('WARNING')).toBe('WARNING');
  });

  it('also reads a message printed over several lines whole, with its line breaks', () => {
    const hint = normalisePaste('`"x"` is not an id of an argument or a group.\nMake sure you are using the name of the argument itself.');
    expect(hint.messages.map((m) => m.text)).toContain('`"x"` is not an id of an argument or a group.\nMake sure you are using the name of the argument itself.');
    // A JavaScript error whose message holds a newline, above its frames.
    const js = normalisePaste('Error: `yarn build` failed\nsome output\n    at runYarn (/app/scripts/release/utilities.js:65:27)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)');
    expect(js.messages.map((m) => m.text)).toContain('`yarn build` failed\nsome output');
    // Not across a frame, an indented line or a note.
    const panic = normalisePaste("thread 'main' panicked at src/x.rs:3:5:\nGroup `a` is undefined\nnote: run with `RUST_BACKTRACE=1`");
    expect(panic.messages.some((m) => m.text.includes('\n'))).toBe(false);
  });

  it("reads pytest's long report: the error after its `E` marks, its frames, and no rule or empty mark joined to a line", () => {
    const report = [
      '    def test_model():',
      '>       class M(BaseModel):',
      '',
      'tests/test_m.py:12: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _',
      '.venv/lib/python3.12/site-packages/pydantic/_internal/_fields.py:330: in collect_model_fields',
      '    raise PydanticUserError(',
      "E   pydantic.errors.PydanticUserError: To define root models, use `pydantic.RootModel` rather than a field called '__root__'",
      'E   ',
      'E   For further information visit https://errors.pydantic.dev/2.9/u/root-model',
    ].join('\n');
    const read = normalisePaste(report);
    expect(read.messages[0]).toEqual({
      text: "To define root models, use `pydantic.RootModel` rather than a field called '__root__'",
      errorClass: 'pydantic.errors.PydanticUserError',
      withPrefix: "pydantic.errors.PydanticUserError: To define root models, use `pydantic.RootModel` rather than a field called '__root__'",
    });
    expect(read.messages.some((m) => /__'E|12: ?_ _/.test(m.text))).toBe(false);
    expect(read.frames.map((f) => f.path)).toEqual(['.venv/lib/python3.12/site-packages/pydantic/_internal/_fields.py', 'tests/test_m.py']);
  });

  it("reads a message's indented lines after its class, even below a notebook's header lines", () => {
    const notebook = [
      '---------------------------------------------------------------------------',
      'ArgumentError                             Traceback (most recent call last)',
      'Cell In[3], line 5',
      '----> 5 engine = create_engine("sqlite:/foo.db")',
      '',
      'File ~/venv/lib/python3.11/site-packages/sqlalchemy/dialects/sqlite/pysqlite.py:753, in SQLiteDialect_pysqlite.create_connect_args(self, url)',
      '--> 753     raise exc.ArgumentError(',
      '',
      'ArgumentError: Invalid SQLite URL: sqlite:/foo.db',
      'Valid SQLite URL forms are:',
      ' sqlite:///:memory: (or, sqlite://)',
      ' sqlite:///relative/path/to/file.db',
    ].join('\n');
    const read = normalisePaste(notebook);
    expect(read.messages.map((m) => m.text)).toContain('Invalid SQLite URL: sqlite:/foo.db\nValid SQLite URL forms are:\n sqlite:///:memory: (or, sqlite://)\n sqlite:///relative/path/to/file.db');
    expect(read.frames[0]).toEqual({ path: '~/venv/lib/python3.11/site-packages/sqlalchemy/dialects/sqlite/pysqlite.py', line: 753, fn: 'create_connect_args' });
    // Its header names the class the traceback ends in: that line is the error, not the header.
    const cell = normalisePaste(['-'.repeat(75), `AttributeError${' '.repeat(28)}Traceback (most recent call last)`, 'Cell In[3], line 2', "      1 raw = 'x'", '----> 2 raw.decode()', '', "AttributeError: 'str' object has no attribute 'decode'"].join('\n'));
    expect(cell.messages[0]).toMatchObject({ errorClass: 'AttributeError', text: "'str' object has no attribute 'decode'" });
    expect(cell.frames).toEqual([{ path: 'Cell In[3]', line: 2, fn: null }]);
    // Without a class before it, an indented line still ends a block (it is code, or a frame's source).
    expect(normalisePaste('Could not build the plan\nfor the job\n    plan = build()').messages.map((m) => m.text)).toContain('Could not build the plan\nfor the job');
  });

  it("also reads a message with the tool's tag its log prefix ended with", () => {
    expect(normalisePaste('[vite:html] internal error, failed to overwrite attribute value').messages.map((m) => m.text)).toEqual(
      expect.arrayContaining(['internal error, failed to overwrite attribute value', '[vite:html] internal error, failed to overwrite attribute value']),
    );
    // A file position is no tool's tag.
    expect(normalisePaste('ERROR 12-01 10:01:02 [core.py:708] engine died').messages.map((m) => m.text)).toEqual(['engine died']);
  });

  it('splitClassPrefix only takes prefixes that look like a class', () => {
    expect(splitClassPrefix('InvalidURL: No host').errorClass).toBe('InvalidURL');
    expect(splitClassPrefix('StreamClosed: Attempted to read').errorClass).toBe('StreamClosed');
    expect(splitClassPrefix('Invalid: value').errorClass).toBeNull();
    expect(splitClassPrefix('timeout: waited 3s').errorClass).toBeNull();
    expect(splitClassPrefix('KeyError: frame').errorClass).toBe('KeyError');
    expect(splitClassPrefix('std::invalid_argument: bad').errorClass).toBe('std::invalid_argument');
    expect(splitClassPrefix('KeyError: frame').withPrefix).toBe('KeyError: frame');
  });
});
