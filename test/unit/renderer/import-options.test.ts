import { describe, expect, it } from 'vitest';
import { defaultImportOptions, importBytesFields, importFileFields } from '../../../src-renderer/components/logs/import-options';
import { requestSchemas } from '../../../src-main/api/contract';

describe('import options: the sensor\'s extrinsic', () => {
  it('sends a host path or the text, and the inversion only with a file', () => {
    const base = defaultImportOptions();
    expect(importFileFields(base)).toEqual({});
    expect(importFileFields({ ...base, extrinsicInverse: true })).toEqual({});
    const byPath = importFileFields({ ...base, extrinsic: { name: 'vel2os1.yaml', path: '/data/vel2os1.yaml' }, extrinsicInverse: true });
    expect(byPath).toEqual({ extrinsicPath: '/data/vel2os1.yaml', extrinsicInverse: true });
    const text = { name: 'vel2os1.yaml', text: 'q: [0, 0, 1, 0]\nt: [0, 0, 0]\n' };
    expect(importBytesFields({ ...base, extrinsic: text })).toEqual({ extrinsic: text });
    expect(requestSchemas['logs.importFile'].safeParse({ path: '/data/x.bin', ...byPath }).success).toBe(true);
    expect(requestSchemas['logs.importBytes'].safeParse({ name: 'x.bin', bytes: new Uint8Array(4), ...importBytesFields({ ...base, extrinsic: text }) }).success).toBe(true);
  });
});
