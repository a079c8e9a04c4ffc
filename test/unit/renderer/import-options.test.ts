import { describe, expect, it } from 'vitest';
import { defaultImportOptions, importBytesFields, importFileFields } from '../../../src-renderer/components/logs/import-options';
import { requestSchemas } from '../../../src-main/api/contract';

describe('import options: a range of scans', () => {
  it('sends A:B, A: and A as the API\'s scans; a malformed range throws naming it', () => {
    const base = defaultImportOptions();
    expect(importFileFields({ ...base, scans: ' 2:3 ' })).toEqual({ scans: { from: 2, to: 3 } });
    expect(importBytesFields({ ...base, scans: '2:' })).toEqual({ scans: { from: 2, to: null } });
    expect(importFileFields({ ...base, scans: '4' })).toEqual({ scans: { from: 4, to: 4 } });
    expect(() => importFileFields({ ...base, scans: '3:2' })).toThrow('scans "3:2": need 1 ≤ A ≤ B');
    expect(() => importFileFields({ ...base, scans: 'two' })).toThrow('scans "two": expected A:B');
    expect(requestSchemas['logs.importFile'].safeParse({ path: '/data/x.pcap', ...importFileFields({ ...base, scans: '2:3' }) }).success).toBe(true);
  });
});

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
