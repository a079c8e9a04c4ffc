import { describe, expect, it } from 'vitest';
import { parseWebArgs } from '../../../src-main/host/web-args';
import { cspFromHtml, DEFAULT_CSP, rendererCsp } from '../../../src-main/host/csp';

describe('web host command line', () => {
  it('defaults to a free port, no project, THICKET_HOME', () => {
    expect(parseWebArgs([], { THICKET_HOME: '/h' })).toEqual({ port: 0, project: null, home: '/h', help: false });
  });

  it('reads --port, --project and --home (also --x=value)', () => {
    expect(parseWebArgs(['--port', '8123', '--project=/p/a.thicket', '--home', '/x'], {})).toEqual({
      port: 8123,
      project: '/p/a.thicket',
      home: '/x',
      help: false,
    });
  });

  it.each([['--port', 'abc'], ['--port', '70000'], ['--port', '-1'], ['--bogus']])('rejects %s %s', (...argv) => {
    expect(() => parseWebArgs(argv.filter(Boolean), {})).toThrow();
  });
});

describe('CSP from the renderer page', () => {
  it('takes the policy from the meta tag', () => {
    const html = `<head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy"\n content="default-src 'self';\n  img-src data:"></head>`;
    expect(cspFromHtml(html)).toBe("default-src 'self'; img-src data:");
  });

  it('falls back to the default without a page or a tag', () => {
    expect(cspFromHtml('<head></head>')).toBeNull();
    expect(rendererCsp('/nonexistent-dir')).toBe(DEFAULT_CSP);
  });
});
