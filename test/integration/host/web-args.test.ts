import { describe, expect, it } from 'vitest';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseWebArgs, WEB_USAGE } from '../../../src-main/host/web-args';
import { createAppServices } from '../../../src-main/services/app-services';
import { tempDir } from '../../helpers/temp';
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

  it('says where the home is by default: ~/.thicket, as the services choose it', async () => {
    expect(WEB_USAGE).toContain('else ~/.thicket');
    expect(WEB_USAGE).not.toContain('documents');
    const saved = { THICKET_HOME: process.env.THICKET_HOME, HOME: process.env.HOME };
    const tmp = tempDir();
    delete process.env.THICKET_HOME;
    process.env.HOME = tmp.dir; // homedir() reads it: the test's own, not the user's
    try {
      const services = await createAppServices({ shell: 'web', workers: 1 });
      expect(services.options.homeDir).toBe(join(tmp.dir, '.thicket'));
      expect(homedir()).toBe(tmp.dir);
      expect(services.options.defaultProjectDir).toBe(join(tmp.dir, 'Thicket'));
      await services.close();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      tmp.cleanup();
    }
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
