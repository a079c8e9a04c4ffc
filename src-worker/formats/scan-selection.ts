/**
 * The first pass of an import that needs the capture's scans (poses one per scan, `--scans A:B`):
 * the decoded packets are counted into scans (capture-scans.ts) and the range is checked
 * against them before anything is stored.
 */
import type { ScanRange } from '../../src-common/scan-range';
import { ScanCounter, scanPacketRange, type CaptureScans } from './capture-scans';
import { DecodeError } from './decode-error';
import type { PacketStream } from './log-format';
import type { PosesPlacement } from './pose-lookup';

export interface ScanSelection {
  /** Scans in the capture. */
  total: number;
  /** The scans kept, numbered from 1 in the capture, inclusive. */
  first: number;
  last: number;
  /** The packets kept: [fromPacket, toPacket) of the capture. */
  fromPacket: number;
  toPacket: number;
  /** The capture's scans (the first pass's result; not kept in the summary). */
  capture: CaptureScans | null;
  /** How a poses file was matched to the packets, when one was given. */
  placement?: PosesPlacement | null;
}

export function selectScans(stream: PacketStream, name: string, range: ScanRange | null): ScanSelection {
  const counter = new ScanCounter();
  let last = 0;
  for (let r = stream.next(); !r.done; r = stream.next()) {
    const p = r.value;
    // The log writer's clock: a packet without a time takes the previous one's.
    const t = Number.isFinite(p.time) ? p.time : last;
    last = t;
    let end = 0;
    if (p.rayTime) for (let i = 0; i < p.count; i++) if (p.rayTime[i]! > end) end = p.rayTime[i]!;
    counter.add(t, end, p.count > 0 ? p.dir.subarray(0, 3) : null);
  }
  const capture = counter.finish();
  const total = capture.starts.length;
  if (capture.packets === 0) throw new DecodeError(name, 'no packets: nothing to count scans in');
  const first = range?.from ?? 1;
  const lastScan = range ? range.to ?? total : total;
  if (first > total || lastScan > total) {
    throw new DecodeError(name, `scans ${first}:${lastScan} asked for, but the capture has ${total} scan(s) (numbered from 1 in capture order)`);
  }
  const { from, to } = scanPacketRange(capture, first, lastScan);
  return { total, first, last: lastScan, fromPacket: from, toPacket: to, capture };
}
