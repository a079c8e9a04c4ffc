import { describe, expect, it } from 'vitest';
import { logInfoRows } from '../../../src-renderer/components/log-info';

describe('log metadata rows', () => {
  it('names known keys, formats times and counts, skips zero counters and bookkeeping', () => {
    const rows = logInfoRows({
      sensor: 'HDL-32E', returnMode: 'strongest', gpsFixes: 100, firstFix: '37.143015, -121.663022',
      startTime: 1355263364.47309, rebuiltMisses: 0, hourWraps: 0, positionPackets: 100, dataPackets: 876, otherUdp: 3,
    });
    expect(rows).toEqual([
      ['Sensor', 'HDL-32E'],
      ['Return mode', 'strongest'],
      ['GPS fixes', '100'],
      ['First fix (lat, lon)', '37.143015, -121.663022'],
      ['Start time', '2012-12-11 22:02:44 UTC'],
      ['Position packets', '100'],
      ['Other udp', '3'],
    ]);
  });
  it('a relative clock has no start date; rebuilt misses show when there are some', () => {
    expect(logInfoRows({ startTime: 0, rebuiltMisses: 12345 })).toEqual([['Rebuilt misses', '12,345']]);
  });
});
