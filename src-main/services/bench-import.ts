/**
 * Capture import benchmark: a synthetic HDL-32E capture of `megabytes` (default 1 GB; written
 * to a temporary folder in blocks, so writing it costs no memory) imported through the whole
 * job (stream, decode, chunk, transfer, store), timed, with the process's peak resident memory
 * (worker threads included) before and after.
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppServices } from './app-services';

export interface ImportBench {
  megabytes: number;
  packets: number;
  rays: number;
  seconds: number;
  mbPerSecond: number;
  /** Peak resident set of the whole process (MB) before and after the import. */
  peakRssMBBefore: number;
  peakRssMB: number;
  projectMB: number;
}

const RECORD = 16 + 14 + 20 + 8 + 1206; // pcap record header, Ethernet, IPv4, UDP, payload

/** Packets of a synthetic capture of `megabytes` (its file header included). */
export function captureRecords(megabytes: number): number {
  return Math.floor((megabytes * 1048576 - 24) / RECORD);
}

export async function benchImport(services: AppServices, megabytes: number, progress: (m: string) => void): Promise<ImportBench> {
  const dir = mkdtempSync(join(tmpdir(), 'thicket-bench-import-'));
  try {
    const file = join(dir, 'hdl32e.pcap');
    progress(`import: writing a ${megabytes} MB HDL-32E capture`);
    writeCapture(file, captureRecords(megabytes));
    await services.call('project.create', { path: join(dir, 'bench.thicket') });
    const peakBefore = process.resourceUsage().maxRSS / 1024;
    progress('import: importing it');
    const t0 = performance.now();
    const { job } = await services.call('logs.importFile', { path: file });
    const final = await services.whenJobSettled(job.id);
    const seconds = (performance.now() - t0) / 1000;
    if (final.state !== 'done') throw new Error(`bench: import ${final.state}: ${final.error}`);
    const r = final.result as { packets: number; hits: number; misses: number };
    const size = statSync(file).size / 1048576;
    await services.call('project.close', {});
    return {
      megabytes: Math.round(size),
      packets: r.packets,
      rays: r.hits + r.misses,
      seconds: Math.round(seconds * 100) / 100,
      mbPerSecond: Math.round(size / seconds),
      peakRssMBBefore: Math.round(peakBefore),
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      projectMB: Math.round(statSync(join(dir, 'bench.thicket')).size / 1048576),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes `count` HDL-32E data packets at 10 Hz (0.553 ms apart): a sphere of 20–60 m ranges
 * with 10 % empty returns, azimuth advancing as a real head's. Returns `count`.
 */
export function writeCapture(path: string, count: number): number {
  const fd = openSync(path, 'w');
  try {
    const header = new Uint8Array(24);
    const h = new DataView(header.buffer);
    h.setUint32(0, 0xa1b2c3d4, true);
    h.setUint16(4, 2, true);
    h.setUint16(6, 4, true);
    h.setUint32(16, 65535, true);
    h.setUint32(20, 1, true);
    writeSync(fd, header);
    const perBlock = 4096;
    const buf = new Uint8Array(RECORD * perBlock);
    const dv = new DataView(buf.buffer);
    for (let first = 0; first < count; first += perBlock) {
      const n = Math.min(perBlock, count - first);
      for (let k = 0; k < n; k++) {
        const i = first + k;
        const o = k * RECORD;
        const t = 1_700_000_000 + i * 0.000553;
        dv.setUint32(o, Math.floor(t), true);
        dv.setUint32(o + 4, Math.round((t % 1) * 1e6) % 1_000_000, true);
        dv.setUint32(o + 8, RECORD - 16, true);
        dv.setUint32(o + 12, RECORD - 16, true);
        const e = o + 16;
        buf.fill(0, e, e + 12);
        dv.setUint16(e + 12, 0x0800, false);
        const ip = e + 14;
        buf[ip] = 0x45;
        dv.setUint16(ip + 2, 20 + 8 + 1206, false);
        dv.setUint16(ip + 6, 0, false);
        buf[ip + 8] = 64;
        buf[ip + 9] = 17;
        const udp = ip + 20;
        dv.setUint16(udp, 2368, false);
        dv.setUint16(udp + 2, 2368, false);
        dv.setUint16(udp + 4, 8 + 1206, false);
        const p = udp + 8;
        for (let b = 0; b < 12; b++) {
          const bo = p + b * 100;
          buf[bo] = 0xff;
          buf[bo + 1] = 0xee;
          dv.setUint16(bo + 2, Math.round((i * 12 + b) * 19.9) % 36000, true);
          for (let c = 0; c < 32; c++) {
            const empty = (i * 7 + b * 13 + c * 29) % 10 === 0;
            dv.setUint16(bo + 4 + 3 * c, empty ? 0 : 10_000 + ((i * 31 + b * 17 + c * 97) % 20_000), true);
            buf[bo + 6 + 3 * c] = (c * 8 + b) & 0xff;
          }
        }
        dv.setUint32(p + 1200, Math.round(((i * 0.000553) % 3600) * 1e6), true);
        buf[p + 1204] = 0x37;
        buf[p + 1205] = 0x21;
      }
      writeSync(fd, buf, 0, n * RECORD);
    }
    return count;
  } finally {
    closeSync(fd);
  }
}
