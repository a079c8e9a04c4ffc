/**
 * `simulate --poses-from LOG` follows LOG's drive for as long as LOG lasts: n recorded packets
 * cover n packet periods (not the n − 1 between the first and the last packet's times), so the
 * log's own profile gives back n packets.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPcap, ethernet, ipv4Udp, type Frame } from '../../../src-worker/formats/pcap/pcap-build';
import { useAppServices } from '../../helpers/app-services';

const fx = useAppServices({ workers: 2, prefix: 'thicket-poses-from-', project: 'poses-from.thicket' });

/** `n` VLP-16 data packets 1.327 ms apart (its single-return rate), a wall 5 m away all round. */
function vlp16Pcap(n: number): Uint8Array {
  const frames: Frame[] = [];
  for (let k = 0; k < n; k++) {
    const p = new Uint8Array(1206);
    const dv = new DataView(p.buffer);
    for (let b = 0; b < 12; b++) {
      dv.setUint16(100 * b, 0xeeff, true);
      dv.setUint16(100 * b + 2, (k * 480 + b * 40) % 36000, true);
      for (let c = 0; c < 32; c++) dv.setUint16(100 * b + 4 + 3 * c, 2500, true);
    }
    dv.setUint32(1200, 1000 + Math.round(k * 1327.104), true);
    p[1204] = 0x37;
    p[1205] = 0x22;
    frames.push({ time: 1 + k * 0.001327104, data: ethernet(ipv4Udp(p, { dst: 2368 })) });
  }
  return buildPcap(frames);
}

async function done(jobId: number): Promise<Record<string, unknown>> {
  const job = await fx.services.whenJobSettled(jobId);
  if (job.state !== 'done') throw new Error(`job ${job.kind} ${job.state}: ${job.error}`);
  return job.result!;
}

describe('simulate --poses-from a log', () => {
  for (const n of [64, 2]) {
    it(`a ${n}-packet VLP-16 log re-simulated with the VLP-16 gives ${n} packets`, async () => {
      const path = join(fx.dir, `vlp16-${n}.pcap`);
      writeFileSync(path, vlp16Pcap(n));
      const imported = await done((await fx.services.call('logs.importFile', { path })).job.id);
      expect(imported).toMatchObject({ packets: n });
      const log = Number(imported.log);
      const run = await done((await fx.services.call('simulate.start', { neighbourLogId: log, profileId: 'vlp16', trajectory: { kind: 'log', logId: log } })).job.id);
      expect(run.packets).toBe(n);
    });
  }
});
