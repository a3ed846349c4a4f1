import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { decodeEscapes } from '../../../src/scan/escapes.ts';
import { braceParts, buildTemplate, hole, printfParts, text } from '../../../src/scan/message.ts';
import { skipByPath, skipByText } from '../../../src/scan/select.ts';
import { fillTemplate } from '../../../src/schema/message-template.ts';

const template = (parts: Parameters<typeof buildTemplate>[0], options?: Parameters<typeof buildTemplate>[1]) => {
  const t = buildTemplate(parts, options);
  if (typeof t === 'string') throw new Error(t);
  return t;
};

describe('scan: message templates', () => {
  it('names printf conversions after their arguments; %% is a percent sign', () => {
    expect(template(printfParts('got %r for %(key)s, %5.2f%% done', ['value', 'ignored'], 'python')).errorMessage).toBe('got {value} for {key}, {ignored}% done');
    expect(template(printfParts('dial %s: %w', ['addr', 'err'], 'go')).errorMessage).toBe('dial {addr}: {err}');
  });

  it('reads the printf dialects of Java, PHP and Ruby: argument indexes, %n, padding characters, named conversions', () => {
    expect(template(printfParts('%2$s before %1$s,%n%,d rows at %tH', ['a', 'b', 'rows', 'when'], 'java')).errorMessage).toBe('{b} before {a},\n{a} rows at {b}');
    expect(template(printfParts("%'*10s then %05.1f and %u%%", ['name', 'ratio', 'count'], 'php')).errorMessage).toBe('{name} then {ratio} and {count}%');
    expect(template(printfParts('%<host>s:%d is %{state}, %-5s', ['port', 'extra'], 'ruby')).errorMessage).toBe('{host}:{port} is {state}, {extra}');
    // A dialect without argument indexes reads `%1$s` as text (written `%%` so the site does not read a placeholder).
    expect(template(printfParts('%1$s left', ['a'], 'go')).errorMessage).toBe('%%1$s left');
  });

  it('names brace fields after positional and named arguments, dropping conversions and specs', () => {
    expect(template(braceParts('{} of {0!r:>10} and {name:?}, {{literal}}', ['a.b'], new Map([['name', 'x']]))).errorMessage).toBe('{a.b} of {a.b} and {name}, {{literal}}');
  });

  it('leaves out the console style tags Symfony Console and cleo print without (`<error>…</>`), not prose that only looks like one', () => {
    const styled = (parts: Parameters<typeof buildTemplate>[0]) => template(parts, { styleTags: true }).errorMessage;
    expect(styled([text('<error>Failed to clone <info>'), hole('url'), text('</>, check your git configuration.</>')])).toBe('Failed to clone {url}, check your git configuration.');
    expect(styled([text('<warning>Environment "'), hole('name'), text('" does not exist.</warning>')])).toBe('Environment "{name}" does not exist.');
    expect(styled([text('Destination <fg=yellow>'), hole('path'), text('</> exists and is not empty.')])).toBe('Destination {path} exists and is not empty.');
    // Nothing closes a tag, or nothing opens one (JSX's fragment): the text is the message's own.
    expect(styled([text('expected <b> or <error> here')])).toBe('expected <b> or <error> here');
    expect(styled([text('Did you want a JSX fragment <>...</>?')])).toBe('Did you want a JSX fragment <>...</>?');
    // In a language whose console libraries use none, tags are text.
    expect(template([text('Expected closing tag </b> for <b> near '), hole('name')]).errorMessage).toBe('Expected closing tag </b> for <b> near {name}');
  });

  it('escapes literal braces and printf-like text so the site reads the template back as written', () => {
    const t = template([text('use {x} or %s literally, '), hole('n'), text(' (100% sure)')]);
    expect(t.errorMessage).toBe('use {{x}} or %%s literally, {n} (100% sure)');
    expect(fillTemplate(t.errorMessage, 'use {x} or %s literally, 7 (100% sure)')).toEqual([{ raw: '{n}', name: 'n', value: '7' }]);
    expect(RE2JS.compile(t.messagePattern).matches('use {x} or %s literally, 7 (100% sure)')).toBe(true);
  });

  it('lets a literal # or $ right before a placeholder join it, as the template syntax reads it', () => {
    const t = template([text('heredoc on line #'), hole('n'), text(' is open')]);
    expect(t.errorMessage).toBe('heredoc on line #{n} is open');
    expect(RE2JS.compile(t.messagePattern).matches('heredoc on line #12 is open')).toBe(true);
  });

  it('shortens awkward placeholder names and keeps every placeholder of a long message', () => {
    expect(template([text('bad '), hole('{"a": 1}["a"]'), text(' here')]).errorMessage).toBe('bad {a} here');
    // Patterns run on RE2 (linear time whatever their shape), so a message with 12 values keeps all 12.
    const many = Array.from({ length: 12 }, (_, i) => [text(` w${i} `), hole(`v${i}`)]).flat();
    const built = buildTemplate(many);
    expect(typeof built === 'object' && built.messagePattern.split('(.+?)').length - 1).toBe(12);
  });

  it('decodes escapes per language, keeping control characters as written', () => {
    expect(decodeEscapes('a\\tb\\n\\x41\\u00e9\\x1b', 'python')).toBe('a\tb\nAé\\x1b');
    expect(decodeEscapes('line \\\n      next \\u{1F600}', 'rust')).toBe('line next 😀');
    expect(decodeEscapes('say \\"hi\\" \\101', 'go')).toBe('say "hi" A');
  });
});

describe('scan: which files', () => {
  it('leaves out tests, vendored, generated, examples and declarations by path', () => {
    expect(skipByPath('pkg/tests/test_x.py', 'python')).toBe('test');
    expect(skipByPath('pkg/test_x.py', 'python')).toBe('test');
    expect(skipByPath('src/a.spec.ts', 'typescript')).toBe('test');
    expect(skipByPath('queue_test.go', 'go')).toBe('test');
    expect(skipByPath('vendor/github.com/x/y.go', 'go')).toBe('vendored');
    expect(skipByPath('api/v1/api.pb.go', 'go')).toBe('generated');
    expect(skipByPath('examples/demo.rs', 'rust')).toBe('example');
    expect(skipByPath('types/index.d.ts', 'typescript')).toBe('declaration');
    expect(skipByPath('dist/app.min.js', 'javascript')).toBe('minified');
    expect(skipByPath('src/client.py', 'python')).toBeNull();
  });

  it('leaves out generated headers and minified text', () => {
    expect(skipByText('// Code generated by protoc-gen-go. DO NOT EDIT.\npackage x\n')).toBe('generated');
    expect(skipByText(`${'x'.repeat(6000)}\n`)).toBe('minified');
    expect(skipByText('def f():\n    pass\n')).toBeNull();
  });
});
