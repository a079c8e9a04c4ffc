/**
 * SICK 2D scanners' CoLa-B scan telegrams exported from a capture as JSON (sick-cola-json.ts):
 * one packet per scan, misses where a beam returned nothing. The whole file is read (a few MB).
 */
import type { LogFormatDescriptor, PacketStream } from '../log-format';
import { readAll } from '../log-source';
import { decodeSickJson, sickScanPacket } from './sick-cola-json';

/** A JSON array whose entries carry `_source` layers: what Wireshark's JSON export writes. */
function looksLikeCaptureJson(head: Uint8Array): boolean {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  return /^\s*\[\s*\{\s*"_source"\s*:/.test(text);
}

export const sickJsonFormat: LogFormatDescriptor<'sick-json'> = {
  info: {
    id: 'sick-json',
    label: 'SICK CoLa-B scans (capture JSON)',
    extensions: ['.pcapng.json'],
    kind: 'stream',
    hitOnly: false,
    needs: { calibration: 'optional', profile: 'none', ownPoses: null },
  },
  detect: { byName: (lower, head) => lower.endsWith('.pcapng.json') || looksLikeCaptureJson(head) },
  open: ({ src, name }) => sickPackets(readAll(src), name),
  fuzz: [
    {
      name: 'sick-json',
      sample: () => new TextEncoder().encode(sampleJson()),
      decode: (b) => decodeSickJson(b, 'f.pcapng.json'),
    },
  ],
};

function* sickPackets(bytes: Uint8Array, name: string): PacketStream {
  const scans = decodeSickJson(bytes, name);
  for (const s of scans) yield sickScanPacket(s);
  const first = scans[0]!;
  return {
    format: 'sick-json',
    recordsMisses: true,
    notes: { scans: scans.length, beams: first.range.length, startDeg: first.startDeg, stepDeg: first.stepDeg, scanHz: first.scanHz },
  };
}

/** A file of two scans of 5 beams (one without a return), for the fuzzer and the registry test. */
export function sampleJson(): string {
  const scan = (counter: number): string => {
    const body: number[] = [...new TextEncoder().encode('sSN LMDscandata ')];
    const u16 = (v: number) => body.push((v >> 8) & 255, v & 255);
    const u32 = (v: number) => body.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
    u16(1); u16(1); u32(123); u16(0); u16(counter); u16(counter); u32(1000 * counter); u32(1000 * counter); u16(0); u16(0); u16(0);
    u32(1500); u32(0); u16(0); u16(1);
    body.push(...new TextEncoder().encode('DIST1'));
    u32(0x3f800000); u32(0); u32(-450000 >>> 0); u16(3333); u16(5);
    for (const d of [1000, 1010, 0, 2000, 2005]) u16(d);
    const telegram = [2, 2, 2, 2, (body.length >>> 24) & 255, (body.length >>> 16) & 255, (body.length >>> 8) & 255, body.length & 255, ...body, 0];
    const hex = telegram.map((x) => x.toString(16).padStart(2, '0')).join(':');
    return `{"_source":{"layers":{"tcp":{"Timestamps":{"tcp.time_relative":"${counter * 0.0667}"},"tcp.payload":"${hex}"}}}}`;
  };
  return `[${scan(1)},${scan(2)}]`;
}
