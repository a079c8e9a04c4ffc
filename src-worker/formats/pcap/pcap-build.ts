/** Builders of synthetic pcap and pcapng files (link layers, IPv4, UDP): decoder tests and fuzz samples. */
export interface Frame {
  time: number;
  /** Link-layer frame bytes. */
  data: Uint8Array;
}

/** An IPv4 + UDP packet (no link layer). */
export function ipv4Udp(payload: Uint8Array, opts: { src?: number; dst?: number; proto?: number; flagsFrag?: number } = {}): Uint8Array {
  const out = new Uint8Array(20 + 8 + payload.length);
  const dv = new DataView(out.buffer);
  out[0] = 0x45;
  dv.setUint16(2, out.length, false);
  dv.setUint16(6, opts.flagsFrag ?? 0x4000, false); // don't fragment
  out[8] = 64;
  out[9] = opts.proto ?? 17;
  dv.setUint16(20, opts.src ?? 443, false);
  dv.setUint16(22, opts.dst ?? 2368, false);
  dv.setUint16(24, 8 + payload.length, false);
  out.set(payload, 28);
  return out;
}

export function ethernet(ip: Uint8Array, etherType = 0x0800, vlan = false): Uint8Array {
  const head = vlan ? 18 : 14;
  const out = new Uint8Array(head + ip.length);
  const dv = new DataView(out.buffer);
  if (vlan) { dv.setUint16(12, 0x8100, false); dv.setUint16(14, 7, false); dv.setUint16(16, etherType, false); }
  else dv.setUint16(12, etherType, false);
  out.set(ip, head);
  return out;
}

export function sll(ip: Uint8Array): Uint8Array {
  const out = new Uint8Array(16 + ip.length);
  new DataView(out.buffer).setUint16(14, 0x0800, false);
  out.set(ip, 16);
  return out;
}

/** A classic pcap of `frames`. */
export function buildPcap(frames: Frame[], opts: { linkType?: number; littleEndian?: boolean; nanosecond?: boolean } = {}): Uint8Array {
  const le = opts.littleEndian ?? true;
  const ns = opts.nanosecond ?? false;
  const size = 24 + frames.reduce((s, f) => s + 16 + f.data.length, 0);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, ns ? 0xa1b23c4d : 0xa1b2c3d4, le);
  dv.setUint16(4, 2, le);
  dv.setUint16(6, 4, le);
  dv.setUint32(16, 65535, le);
  dv.setUint32(20, opts.linkType ?? 1, le);
  let o = 24;
  for (const f of frames) {
    const sec = Math.floor(f.time);
    dv.setUint32(o, sec, le);
    dv.setUint32(o + 4, Math.round((f.time - sec) * (ns ? 1e9 : 1e6)), le);
    dv.setUint32(o + 8, f.data.length, le);
    dv.setUint32(o + 12, f.data.length, le);
    out.set(f.data, o + 16);
    o += 16 + f.data.length;
  }
  return out;
}

export const bytesOf = (...v: number[]) => Uint8Array.from(v);

/** A pcapng: SHB, one Ethernet IDB (optional if_tsresol), an unknown block, EPBs (and an SPB repeating frame 0). */
export function buildPcapng(frames: Frame[], opts: { littleEndian?: boolean; tsresol?: number; simpleAfter?: boolean }): Uint8Array {
  const le = opts.littleEndian ?? true;
  const blocks: Uint8Array[] = [];
  const block = (type: number, body: Uint8Array): void => {
    const padded = (body.length + 3) & ~3;
    const b = new Uint8Array(12 + padded);
    const dv = new DataView(b.buffer);
    dv.setUint32(0, type, le);
    dv.setUint32(4, b.length, le);
    b.set(body, 8);
    dv.setUint32(b.length - 4, b.length, le);
    blocks.push(b);
  };
  const shb = new Uint8Array(16);
  const sdv = new DataView(shb.buffer);
  sdv.setUint32(0, 0x1a2b3c4d, le);
  sdv.setUint16(4, 1, le);
  sdv.setBigInt64(8, -1n, le);
  block(0x0a0d0d0a, shb);
  const res = opts.tsresol ?? 6;
  const idb = new Uint8Array(opts.tsresol !== undefined ? 8 + 8 + 4 : 8);
  const idv = new DataView(idb.buffer);
  idv.setUint16(0, 1, le);
  idv.setUint32(4, 65535, le);
  if (opts.tsresol !== undefined) { idv.setUint16(8, 9, le); idv.setUint16(10, 1, le); idb[12] = opts.tsresol; }
  block(1, idb);
  block(0x0bad, new Uint8Array(8)); // an unknown (custom) block: skipped
  for (const f of frames) {
    const body = new Uint8Array(20 + f.data.length);
    const dv = new DataView(body.buffer);
    const ticks = BigInt(Math.round(f.time * 1e6)) * 10n ** BigInt(res - 6);
    dv.setUint32(4, Number(ticks >> 32n), le);
    dv.setUint32(8, Number(ticks & 0xffffffffn), le);
    dv.setUint32(12, f.data.length, le);
    dv.setUint32(16, f.data.length, le);
    body.set(f.data, 20);
    block(6, body);
  }
  if (opts.simpleAfter && frames[0]) {
    const body = new Uint8Array(4 + frames[0].data.length);
    new DataView(body.buffer).setUint32(0, frames[0].data.length, le);
    body.set(frames[0].data, 4);
    block(3, body);
  }
  const out = new Uint8Array(blocks.reduce((s, b) => s + b.length, 0));
  let o = 0;
  for (const b of blocks) { out.set(b, o); o += b.length; }
  return out;
}
