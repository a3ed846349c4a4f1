import { describe, expect, it } from 'vitest';
import { splitLogPrefix, stripLinePrefixes, stripLogPrefix, structuredLogMessage } from '../../../src/search/log-prefix.ts';
import { normalisePaste } from '../../../src/search/normalise.ts';

const MESSAGE = 'Could not determine join condition between parent/child tables';

describe('log prefixes, by the shape each kind of tool prints', () => {
  it.each([
    ['a multi-process logger (name, pid)', '(EngineCore_DP0 pid=4121) ERROR 12-01 10:01:02 [core.py:708] '],
    ['a multi-process logger (name, rank, pid)', '(VllmWorker rank=3 pid=77) WARNING 12-01 10:01:02 [multiproc_executor.py:511] '],
    ['a Ray actor with its address', '(RayWorkerWrapper pid=99, ip=10.0.0.12) '],
    ['torchrun rank tags', '[rank3]: '],
    ['Python logging (default format)', 'ERROR:sqlalchemy.pool.impl:'],
    ['Python logging (asctime - name - level)', '2026-12-01 10:01:02,455 - app.worker - ERROR - '],
    ['Rust tracing', '2026-12-01T10:01:02.123456Z ERROR app::server: '],
    ['Rust tracing with spans', '2026-12-01T10:01:02.123456Z ERROR request{id=7}:handler{path="/x"}: app::server: '],
    ['pytest', 'E       '],
    ['docker compose', 'api-1  | '],
    ['GitHub Actions annotation', '::error file=app/models.py,line=12,col=5::'],
    ['Azure and GitHub log commands', '##[error]'],
    ['GitHub Actions timestamp', '2026-12-01T10:01:02.1234567Z '],
    ['a CRI container log file (Kubernetes nodes)', '2026-12-01T10:01:02.114806377Z stderr F '],
    ['a stream tag', '[stderr] '],
    ['AWS Lambda (time, request id, level)', '2026-12-01T10:01:02.123Z\t3f1c2a7e-5b6f-4c3d-9a1b-0123456789ab\tERROR\t'],
    ['journalctl -o short-iso', '2026-12-01T10:01:02+0000 host1 gunicorn[4121]: '],
    ['log4j (time, thread, level, logger)', '2026-12-01 10:01:02,123 [main] ERROR com.example.app.Server - '],
    ['logback (time, thread, level, short logger)', '10:01:02.123 [http-nio-8080-exec-1] ERROR c.e.a.Server - '],
    ['Spring Boot 3', '2026-12-01T10:01:02.123+01:00 ERROR 4121 --- [shop] [           main] o.s.boot.SpringApplication               : '],
    ['Spring Boot 2', '2026-12-01 10:01:02.123 ERROR 4121 --- [main] o.s.boot.SpringApplication : '],
    ['gunicorn (offset after a space)', '[2026-12-01 10:01:02 +0000] [4121] [ERROR] '],
    ['Celery (level and worker in the bracket)', '[2026-12-01 10:01:02,123: ERROR/ForkPoolWorker-1] '],
    ['Heroku (dyno)', '2026-12-01T10:01:02.000000+00:00 app[web.1]: '],
    ['nginx error log', '2026/12/01 10:01:02 [error] 4121#4121: *1 '],
    ['syslog RFC 5424 header', '<11>1 2026-12-01T10:01:02.003Z host1 app 4121 ID47 - '],
    ['syslog priority before an RFC 3164 line', '<11>Dec  1 10:01:02 host1 app[4121]: '],
    ['pm2', '0|api      | '],
    ['Android logcat (threadtime)', '12-01 10:01:02.123  4121  4133 E AndroidRuntime: '],
    ['Android logcat (brief)', 'E/AndroidRuntime( 4121): '],
    ['npm', 'npm ERR! '],
    ['.NET, unhandled', 'Unhandled exception. '],
    ['PHP', 'PHP Fatal error:  '],
    ['a mark before an error (Next.js, esbuild)', ' ⨯ '],
    ['a box around an error (Terraform)', '│ '],
    ['a file position before a level word (compilers)', 'src/join.c:12:5: error: '],
    ['Vite (a 12-hour time, its tag, a level word)', '10:01:02 AM [vite] error: '],
    ['loguru (time, padded level, module:function:line)', '2026-12-05 10:01:02.123 | ERROR    | app.main:work:5 - '],
    ['loguru in a script', '2026-12-05 10:01:02.123 | ERROR    | __main__:<module>:12 - '],
    ['structlog (padded level in brackets)', '2026-12-05 10:01:02 [error    ] '],
    ['NestJS (app, pid, a locale date, level, context)', '[Nest] 4121  - 12/05/2026, 10:01:02 AM   ERROR [ExceptionsHandler] '],
    ['a 12-hour time of one digit', '[1:01:02 PM] '],
  ])('%s', (_name, prefix) => {
    expect(stripLogPrefix(`${prefix}${MESSAGE}`)).toBe(MESSAGE);
  });

  it('takes a file position for a prefix only before an error, and a logger before ` - ` only when dotted, after a time or level', () => {
    expect(normalisePaste(`/app/models.py:12: UserWarning: ${MESSAGE}`).messages[0]).toMatchObject({ text: MESSAGE, errorClass: 'UserWarning' });
    expect(stripLogPrefix('src/join.c:12: the tables were swapped')).toBe('src/join.c:12: the tables were swapped');
    expect(stripLogPrefix('2026-12-01 10:01:02 ERROR Timeout - server did not respond')).toBe('Timeout - server did not respond');
  });

  it('takes one logger name at most: a message may start like a name before a kind word', () => {
    expect(stripLogPrefix('2026-12-01T10:01:02.123456Z ERROR app::server: timer error: timer is shutdown')).toBe('timer error: timer is shutdown');
    expect(stripLogPrefix('2026-12-01 10:01:02 ERROR worker-3 KeyError: job')).toBe('KeyError: job');
    expect(normalisePaste('2026-12-01T10:01:02Z ERROR app::server: timer error: timer is shutdown').messages.map((m) => m.withPrefix)).toContain('timer error: timer is shutdown');
  });

  it('takes a leading UUID or host and program for a prefix only after a time or level', () => {
    expect(stripLogPrefix('3f1c2a7e-5b6f-4c3d-9a1b-0123456789ab not found')).toBe('3f1c2a7e-5b6f-4c3d-9a1b-0123456789ab not found');
    expect(stripLogPrefix('host1 gunicorn[4121]: worker timeout')).toBe('host1 gunicorn[4121]: worker timeout');
  });

  it('takes the message field of a JSON log line, nested or not', () => {
    expect(structuredLogMessage(`{"level":"error","ts":"2026-12-01T10:01:02Z","msg":"${MESSAGE}"}`)).toBe(MESSAGE);
    expect(structuredLogMessage(`{"severity":"ERROR","error":{"type":"x","message":"${MESSAGE}"}}`)).toBe(MESSAGE);
    expect(structuredLogMessage(`{"log":"${MESSAGE}\\n","stream":"stderr","time":"2026-12-01T10:01:02.1Z"}`)).toBe(MESSAGE);
    // An HTTP API's error body (Django REST framework, FastAPI, RFC 9457's problem details).
    expect(structuredLogMessage(`{"detail":"${MESSAGE}"}`)).toBe(MESSAGE);
    expect(structuredLogMessage(`{"type":"about:blank","title":"Not Found","status":404,"detail":"${MESSAGE}"}`)).toBe(MESSAGE);
    expect(structuredLogMessage('{"not":"a log"}')).toBeNull();
  });

  it('keeps what follows the prefix with its own indentation', () => {
    expect(splitLogPrefix('ERROR 12-01 10:01:02 [core.py:708]   File "x.py", line 3, in f')).toEqual({ prefix: 'ERROR 12-01 10:01:02 [core.py:708]', rest: '   File "x.py", line 3, in f', name: null });
    expect(splitLogPrefix('  File "x.py", line 3, in f')).toEqual({ prefix: '', rest: '  File "x.py", line 3, in f', name: null });
  });

  it('strips a prefix repeated on every line of a traceback, keeping the frames indented under it', () => {
    const p = '(EngineCore_DP0 pid=4121) ERROR 12-01 10:01:02 [core.py:708] ';
    const lines = [`${p}Traceback (most recent call last):`, `${p}  File "/x/y.py", line 3, in f`, `${p}    raise ValueError(msg)`, `${p}ValueError: ${MESSAGE}`];
    expect(stripLinePrefixes(lines)).toEqual(['Traceback (most recent call last):', '  File "/x/y.py", line 3, in f', '    raise ValueError(msg)', `ValueError: ${MESSAGE}`]);
    const pasted = normalisePaste(lines.join('\n'));
    expect(pasted.messages[0]).toMatchObject({ text: MESSAGE, errorClass: 'ValueError' });
    expect(pasted.traceback).toBe(true);
  });

  it('strips a Java logger\'s prefix from every line of a traceback, a frame\'s indentation after it too', () => {
    const p = '2026-12-01 10:01:02,123 ERROR [main] com.example.shop.Worker - ';
    const lines = [`${p}Traceback (most recent call last):`, `${p}  File "/x/y.py", line 3, in f`, `${p}    raise ValueError(msg)`, `${p}ValueError: ${MESSAGE}`];
    expect(stripLinePrefixes(lines)).toEqual(['Traceback (most recent call last):', '  File "/x/y.py", line 3, in f', '    raise ValueError(msg)', `ValueError: ${MESSAGE}`]);
    expect(normalisePaste(lines.join('\n')).messages[0]).toMatchObject({ text: MESSAGE, errorClass: 'ValueError' });
  });

  it('reads a failed GitHub Actions step: a timestamp on every line, the runner\'s annotation with no space after its mark last', () => {
    const p = '2026-12-01T10:01:02.1234567Z ';
    const lines = [`${p}Traceback (most recent call last):`, `${p}  File "/x/y.py", line 3, in f`, `${p}    raise ValueError(msg)`, `${p}ValueError: ${MESSAGE}`, `${p}##[error]Process completed with exit code 1.`];
    expect(stripLinePrefixes(lines)).toEqual(['Traceback (most recent call last):', '  File "/x/y.py", line 3, in f', '    raise ValueError(msg)', `ValueError: ${MESSAGE}`, 'Process completed with exit code 1.']);
    const pasted = normalisePaste(lines.join('\n'));
    expect(pasted.messages[0]).toMatchObject({ text: MESSAGE, errorClass: 'ValueError' });
    expect(pasted.messages.map((m) => m.text)).not.toContain('Process completed with exit code 1.');
  });

  it("strips a logger's plain name from every line of a traceback once it is taken before the error", () => {
    for (const p of ['2026-12-01 10:01:02,123 ERROR app: ', '2026-12-01 10:01:02,123 ERROR worker-3 ']) {
      const lines = [`${p}Traceback (most recent call last):`, `${p}  File "/x/y.py", line 3, in f`, `${p}    raise ValueError(msg)`, `${p}ValueError: ${MESSAGE}`];
      expect(stripLinePrefixes(lines), p).toEqual(['Traceback (most recent call last):', '  File "/x/y.py", line 3, in f', '    raise ValueError(msg)', `ValueError: ${MESSAGE}`]);
      const pasted = normalisePaste(lines.join('\n'));
      expect(pasted.messages[0], p).toMatchObject({ text: MESSAGE, errorClass: 'ValueError' });
      expect(pasted.traceback, p).toBe(true);
    }
    // Another name is the message's own start.
    expect(stripLinePrefixes(['10:01:02 ERROR app: KeyError: x', '10:01:02 ERROR db: connection lost'])).toEqual(['KeyError: x', 'db: connection lost']);
  });

  it('reads pytest\'s E column on every line of a traceback', () => {
    const paste = ['E         File "/x/y.py", line 50, in <module>', 'E           raise Exception("unknown bootstrap: %s" % name)', 'E       Exception: unknown bootstrap: cpu'].join('\n');
    expect(normalisePaste(paste).messages[0]).toMatchObject({ text: 'unknown bootstrap: cpu', errorClass: 'Exception' });
  });

  it('does not take a bracketed word of a message for a colour code that lost its escape', () => {
    expect(normalisePaste('[multiproc_executor.py:511] Wildcard token cannot be followed by another entity').messages[0]!.text).toBe('Wildcard token cannot be followed by another entity');
  });
});

describe('API-call prefixes and classes', () => {
  it('reads the message without the API call named between the class and it', () => {
    const texts = normalisePaste('TimeoutError: page.click: Timeout 30000ms exceeded.').messages.map((m) => m.text);
    expect(texts).toContain('Timeout 30000ms exceeded.');
    expect(texts).toContain('page.click: Timeout 30000ms exceeded.');
  });

  it('reads a long CamelCase name before a colon as a class', () => {
    expect(normalisePaste('PydanticUndefinedAnnotation: Unable to evaluate forward reference x').messages[0]).toMatchObject({ text: 'Unable to evaluate forward reference x', errorClass: 'PydanticUndefinedAnnotation' });
    expect(normalisePaste('InvalidURL: URL too long').messages[0]!.errorClass).toBe('InvalidURL');
  });

  it('also reads doubled spaces as one', () => {
    const texts = normalisePaste('ValueError: are  not permitted as  argument names').messages.map((m) => m.text);
    expect(texts).toContain('are not permitted as argument names');
  });
});
