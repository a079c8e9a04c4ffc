import { DecodeError } from '../decode-error';
import { memorySource, type ByteSource } from '../log-source';

/**
 * Packet captures (classic libpcap and pcapng): the UDP datagrams they hold, one at a time, so an
 * importer can decode packets as they come without building a list of the whole file. The file
 * is read through a ByteSource in windows of a few megabytes, so a capture of any size streams
 * in constant memory; a yielded payload is a view into the current window, valid until the
 * generator resumes.
 *
 * Supported: both byte orders, microsecond (0xa1b2c3d4) and nanosecond (0xa1b23c4d) magic, and
 * pcapng (see pcapngUdpPackets);
 * link types Ethernet (1, with up to two 802.1Q/802.1ad VLAN tags), raw IP (101, 228), Linux
 * cooked capture SLL (113) and SLL2 (276). Frames that are not IPv4, not UDP, IPv4 fragments
 * or malformed are skipped and counted in the stats. A capture cut mid-record (a full disk, a
 * killed tcpdump, a partial copy) keeps every complete record: the incomplete tail is dropped
 * and counted in the stats (`truncatedAt`, `droppedBytes`), which the importers turn into a
 * warning, as VeloView and Wireshark read such files (docs/drive-logs.md, "Truncated files").
 */

export interface UdpPacket {
  /** Capture time in seconds (the pcap record's clock, usually Unix time). */
  time: number;
  srcPort: number;
  dstPort: number;
  /** Byte offset in the file of the pcap record (its 16-byte record header). */
  offset: number;
  /** Byte offset in the file of the UDP payload (for error messages of payload decoders). */
  payloadOffset: number;
  /** A view into the input (no copy). */
  payload: Uint8Array;
}

export interface PcapStats {
  linkType: number;
  nanosecond: boolean;
  littleEndian: boolean;
  records: number;
  udp: number;
  /** Frames that are not IPv4 (ARP, IPv6, other ethertypes or link-layer protocols). */
  nonIpv4: number;
  /** IPv4 packets that are not UDP. */
  nonUdp: number;
  /** IPv4 fragments (more-fragments flag or a non-zero fragment offset): not reassembled. */
  fragments: number;
  /** Frames too short for their headers or cut by the capture's snap length. */
  malformed: number;
  /** Byte offset of an incomplete last record (the file was cut there), or -1. */
  truncatedAt: number;
  /** Bytes of that incomplete record left unread. */
  droppedBytes: number;
}

export const PCAP_HEADER_BYTES = 24;
const RECORD_HEADER_BYTES = 16;
/** No real capture has larger records; a larger length means a corrupt record header. */
const MAX_RECORD_BYTES = 0x40000;

const LINK_ETHERNET = 1;
const LINK_RAW = 101;
const LINK_IPV4_RAW = 228;
const LINK_SLL = 113;
const LINK_SLL2 = 276;
const SUPPORTED_LINKS = [LINK_ETHERNET, LINK_RAW, LINK_IPV4_RAW, LINK_SLL, LINK_SLL2];

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_VLAN = [0x8100, 0x88a8, 0x9100];

/** Bytes read from the source per window (records straddling a window's end start a new one). */
const WINDOW_BYTES = 8 << 20;

/**
 * A sliding window over a ByteSource: `ensure(offset, length)` makes [offset, offset + length)
 * addressable as `bytes[offset - base ...]`, reading a new window only when needed.
 */
class Window {
  bytes: Uint8Array = new Uint8Array(0);
  dv: DataView = new DataView(this.bytes.buffer);
  base = 0;
  constructor(private readonly src: ByteSource) {}

  /** Bytes available at `offset`, at most `length` (fewer only at the end of the file). */
  ensure(offset: number, length: number): number {
    const have = this.base + this.bytes.byteLength - offset;
    if (offset >= this.base && have >= length) return length;
    if (offset >= this.base && this.base + this.bytes.byteLength >= this.src.size) return Math.max(0, have);
    this.bytes = this.src.read(offset, Math.max(length, WINDOW_BYTES));
    this.dv = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    this.base = offset;
    return Math.min(length, this.bytes.byteLength);
  }
}

export function emptyPcapStats(): PcapStats {
  return { linkType: -1, nanosecond: false, littleEndian: true, records: 0, udp: 0, nonIpv4: 0, nonUdp: 0, fragments: 0, malformed: 0, truncatedAt: -1, droppedBytes: 0 };
}

/** True when `bytes` starts with a pcapng section header block. */
export function isPcapng(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x0a && bytes[1] === 0x0d && bytes[2] === 0x0d && bytes[3] === 0x0a;
}

/** True when `bytes` starts with a classic pcap magic (either byte order, µs or ns). */
export function isPcap(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, 4);
  const m = dv.getUint32(0, false);
  return m === 0xa1b2c3d4 || m === 0xd4c3b2a1 || m === 0xa1b23c4d || m === 0x4d3cb2a1;
}

interface PcapHeader {
  littleEndian: boolean;
  nanosecond: boolean;
  linkType: number;
}

function readHeader(bytes: Uint8Array, name: string): PcapHeader {
  if (bytes.length < PCAP_HEADER_BYTES) {
    throw new DecodeError(name, `truncated at byte 0: a pcap file starts with a 24-byte header, the file has ${bytes.length} bytes`, { offset: 0 });
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, PCAP_HEADER_BYTES);
  const m = dv.getUint32(0, false);
  let littleEndian: boolean, nanosecond: boolean;
  if (m === 0xa1b2c3d4) [littleEndian, nanosecond] = [false, false];
  else if (m === 0xd4c3b2a1) [littleEndian, nanosecond] = [true, false];
  else if (m === 0xa1b23c4d) [littleEndian, nanosecond] = [false, true];
  else if (m === 0x4d3cb2a1) [littleEndian, nanosecond] = [true, true];
  else {
    throw new DecodeError(name, `not a pcap file: magic 0x${m.toString(16).padStart(8, '0')} at byte 0 (expected a1b2c3d4 or a1b23c4d in either byte order)`, { offset: 0 });
  }
  // The upper bits of the link-type field carry FCS information in newer captures.
  const linkType = dv.getUint32(20, littleEndian) & 0xffff;
  if (!SUPPORTED_LINKS.includes(linkType)) {
    throw new DecodeError(name, `unsupported pcap link type ${linkType} at byte 20 (supported: Ethernet 1, raw IP 101/228, Linux cooked 113/276)`, { offset: 20 });
  }
  return { littleEndian, nanosecond, linkType };
}

/** The UDP datagram in one link-layer frame `bytes[data, data + incl)`, or null (counted in stats). */
function udpOfFrame(
  bytes: Uint8Array,
  dv: DataView,
  data: number,
  incl: number,
  linkType: number,
  stats: PcapStats,
): { srcPort: number; dstPort: number; payloadOffset: number; payloadEnd: number } | null {
  const end = data + incl;
  // Link layer → start of the IP header.
  let ip: number;
  if (linkType === LINK_ETHERNET) {
    if (incl < 14) { stats.malformed++; return null; }
    let p = data + 12;
    let type = dv.getUint16(p, false);
    for (let tags = 0; tags < 2 && ETHERTYPE_VLAN.includes(type) && p + 6 <= end; tags++) {
      p += 4;
      type = dv.getUint16(p, false);
    }
    if (type !== ETHERTYPE_IPV4) { stats.nonIpv4++; return null; }
    ip = p + 2;
  } else if (linkType === LINK_SLL) {
    if (incl < 16) { stats.malformed++; return null; }
    if (dv.getUint16(data + 14, false) !== ETHERTYPE_IPV4) { stats.nonIpv4++; return null; }
    ip = data + 16;
  } else if (linkType === LINK_SLL2) {
    if (incl < 20) { stats.malformed++; return null; }
    if (dv.getUint16(data, false) !== ETHERTYPE_IPV4) { stats.nonIpv4++; return null; }
    ip = data + 20;
  } else if (linkType === LINK_RAW || linkType === LINK_IPV4_RAW) {
    ip = data;
  } else {
    // pcapng interfaces of other link types (classic pcap rejects them in its header).
    stats.nonIpv4++;
    return null;
  }

  // IPv4.
  if (ip + 20 > end) { stats.malformed++; return null; }
  const vihl = bytes[ip]!;
  if (vihl >> 4 !== 4) { stats.nonIpv4++; return null; }
  const ihl = (vihl & 0x0f) * 4;
  const totalLength = dv.getUint16(ip + 2, false);
  if (ihl < 20 || totalLength < ihl || ip + ihl > end) { stats.malformed++; return null; }
  const flagsFrag = dv.getUint16(ip + 6, false);
  if ((flagsFrag & 0x2000) !== 0 || (flagsFrag & 0x1fff) !== 0) { stats.fragments++; return null; }
  if (bytes[ip + 9] !== 17) { stats.nonUdp++; return null; }
  // Segmentation offload writes 0 here, and early VLP-16 firmware writes its data packets'
  // length (1234) into its 554-byte position frames: then the frame's end bounds the packet
  // and the UDP length decides (a frame cut by the snap length fails that check below).
  const ipEnd = totalLength === 0 || ip + totalLength > end ? end : ip + totalLength;

  // UDP.
  const udp = ip + ihl;
  if (udp + 8 > ipEnd) { stats.malformed++; return null; }
  const udpLength = dv.getUint16(udp + 4, false);
  if (udpLength < 8 || udp + udpLength > ipEnd) { stats.malformed++; return null; }
  stats.udp++;
  return { srcPort: dv.getUint16(udp, false), dstPort: dv.getUint16(udp + 2, false), payloadOffset: udp + 8, payloadEnd: udp + udpLength };
}

/**
 * The UDP datagrams of a classic pcap or a pcapng file, in file order, from bytes in memory or
 * streamed from a ByteSource. Pass `stats` to learn what was skipped (the generator's return
 * value carries the same object).
 */
export function* udpPackets(input: Uint8Array | ByteSource, name: string, stats: PcapStats = emptyPcapStats()): Generator<UdpPacket, PcapStats, void> {
  const src = input instanceof Uint8Array ? memorySource(name, input) : input;
  const size = src.size;
  const w = new Window(src);
  const headLength = w.ensure(0, PCAP_HEADER_BYTES);
  if (isPcapng(w.bytes.subarray(0, headLength))) {
    yield* pcapngUdpPackets(w, size, name, stats);
    return stats;
  }
  const h = readHeader(w.bytes.subarray(0, headLength), name);
  stats.linkType = h.linkType;
  stats.nanosecond = h.nanosecond;
  stats.littleEndian = h.littleEndian;
  const le = h.littleEndian;
  const fracScale = h.nanosecond ? 1e-9 : 1e-6;
  let o = PCAP_HEADER_BYTES;
  while (o < size) {
    if (w.ensure(o, RECORD_HEADER_BYTES) < RECORD_HEADER_BYTES) {
      cutAt(stats, o, size);
      break;
    }
    let b = o - w.base;
    const sec = w.dv.getUint32(b, le);
    const frac = w.dv.getUint32(b + 4, le);
    const incl = w.dv.getUint32(b + 8, le);
    if (incl > MAX_RECORD_BYTES) {
      throw new DecodeError(name, `corrupt record at byte ${o}: captured length ${incl} exceeds ${MAX_RECORD_BYTES} bytes`, { offset: o });
    }
    const data = o + RECORD_HEADER_BYTES;
    if (w.ensure(o, RECORD_HEADER_BYTES + incl) < RECORD_HEADER_BYTES + incl) {
      cutAt(stats, o, size);
      break;
    }
    b = o - w.base;
    stats.records++;
    const rec = o;
    o = data + incl;
    const u = udpOfFrame(w.bytes, w.dv, b + RECORD_HEADER_BYTES, incl, h.linkType, stats);
    if (!u) continue;
    yield {
      time: sec + frac * fracScale,
      srcPort: u.srcPort,
      dstPort: u.dstPort,
      offset: rec,
      payloadOffset: w.base + u.payloadOffset,
      payload: w.bytes.subarray(u.payloadOffset, u.payloadEnd),
    };
  }
  return stats;
}

/** The capture ends inside the record at `o`: every record before it is kept. */
function cutAt(stats: PcapStats, o: number, size: number): void {
  stats.truncatedAt = o;
  stats.droppedBytes = size - o;
}

/** The warning an importer gives for a capture cut mid-record (none for a whole one). */
export function pcapWarnings(stats: PcapStats, name: string): string[] {
  if (stats.truncatedAt < 0) return [];
  return [`${name}: truncated at byte ${stats.truncatedAt}: the last ${stats.droppedBytes} byte(s), an incomplete record, were dropped; the ${stats.records} complete record(s) before it were kept`];
}

// ---- pcapng ----

const NG_SHB = 0x0a0d0d0a;
const NG_IDB = 1;
const NG_PB = 2; // obsolete Packet Block
const NG_SPB = 3;
const NG_EPB = 6;
const NG_BOM = 0x1a2b3c4d;
/** Larger blocks are corrupt lengths (packet blocks hold at most MAX_RECORD_BYTES). */
const MAX_BLOCK_BYTES = 16 << 20;

interface NgInterface {
  linkType: number;
  snapLen: number;
  /** Seconds per timestamp unit. */
  unit: number;
}

/**
 * pcapng: sections (Section Header Blocks, either byte order), Interface Description Blocks
 * (link type, if_tsresol), Enhanced / Simple / obsolete Packet Blocks; other blocks are
 * skipped. `offset` of a packet is its block's offset. Packets of interfaces whose link type is
 * not supported are counted as non-IPv4.
 */
function* pcapngUdpPackets(w: Window, size: number, name: string, stats: PcapStats): Generator<UdpPacket, void, void> {
  let le = true;
  let ifaces: NgInterface[] = [];
  let lastTime = 0;
  let o = 0;
  while (o < size) {
    if (w.ensure(o, 12) < 12) {
      if (o === 0) throw new DecodeError(name, `truncated pcapng block at byte 0: ${size} of at least 12 bytes`, { offset: 0 });
      cutAt(stats, o, size);
      break;
    }
    // Offsets below are into the window: `at` (the block's file offset) names places in errors.
    let dv = w.dv;
    let b = o - w.base;
    const rawType = dv.getUint32(b, true);
    if (rawType === NG_SHB) {
      const bom = dv.getUint32(b + 8, true);
      if (bom === NG_BOM) le = true;
      else if (bom === 0x4d3c2b1a) le = false;
      else throw new DecodeError(name, `pcapng section header at byte ${o}: bad byte-order magic 0x${bom.toString(16)}`, { offset: o + 8 });
      ifaces = [];
      stats.littleEndian = le;
    } else if (o === 0) {
      throw new DecodeError(name, 'not a pcapng file: no section header block at byte 0', { offset: 0 });
    }
    const type = dv.getUint32(b, le);
    const len = dv.getUint32(b + 4, le);
    if (len < 12 || len % 4 !== 0) {
      throw new DecodeError(name, `corrupt pcapng block at byte ${o}: length ${len} is not a multiple of 4 of at least 12`, { offset: o + 4 });
    }
    if (len > size - o) {
      if (o === 0) throw new DecodeError(name, `truncated pcapng block at byte 0: ${len} bytes long, ${size} in the file`, { offset: 0 });
      cutAt(stats, o, size);
      break;
    }
    if (len > MAX_BLOCK_BYTES) {
      throw new DecodeError(name, `corrupt pcapng block at byte ${o}: length ${len} exceeds ${MAX_BLOCK_BYTES} bytes`, { offset: o + 4 });
    }
    w.ensure(o, len);
    dv = w.dv;
    b = o - w.base;
    const bytes = w.bytes;
    if (dv.getUint32(b + len - 4, le) !== len) {
      throw new DecodeError(name, `corrupt pcapng block at byte ${o}: trailing length differs from the leading ${len}`, { offset: o + len - 4 });
    }
    const body = b + 8;
    const bodyEnd = b + len - 4;
    const at = o;
    o += len;
    if (type === NG_IDB) {
      if (bodyEnd - body < 8) throw new DecodeError(name, `pcapng interface block at byte ${at} is too short`, { offset: at });
      const iface: NgInterface = { linkType: dv.getUint16(body, le), snapLen: dv.getUint32(body + 4, le), unit: 1e-6 };
      // Options: if_tsresol (code 9).
      for (let p = body + 8; p + 4 <= bodyEnd;) {
        const code = dv.getUint16(p, le);
        const olen = dv.getUint16(p + 2, le);
        if (code === 0 || p + 4 + olen > bodyEnd) break;
        if (code === 9 && olen >= 1) {
          const r = bytes[p + 4]!;
          iface.unit = r & 0x80 ? 2 ** -(r & 0x7f) : 10 ** -(r & 0x7f);
        }
        p += 4 + ((olen + 3) & ~3);
      }
      if (ifaces.length === 0) {
        stats.linkType = iface.linkType;
        stats.nanosecond = iface.unit < 1e-6;
      }
      ifaces.push(iface);
      continue;
    }
    let data: number, incl: number;
    if (type === NG_EPB || type === NG_PB) {
      if (bodyEnd - body < 20) throw new DecodeError(name, `pcapng packet block at byte ${at} is too short`, { offset: at });
      const id = type === NG_EPB ? dv.getUint32(body, le) : dv.getUint16(body, le);
      const iface = ifaces[id];
      if (!iface) throw new DecodeError(name, `pcapng packet block at byte ${at}: interface ${id} is not described`, { offset: at + 8 });
      const ts = dv.getUint32(body + 4, le) * 2 ** 32 + dv.getUint32(body + 8, le);
      incl = dv.getUint32(body + 12, le);
      data = body + 20;
      if (incl > bodyEnd - data) throw new DecodeError(name, `pcapng packet block at byte ${at}: captured length ${incl} exceeds the block`, { offset: at + 20 });
      const time = ts * iface.unit;
      lastTime = time;
      stats.records++;
      const u = udpOfFrame(bytes, dv, data, incl, iface.linkType, stats);
      if (u) yield { time, srcPort: u.srcPort, dstPort: u.dstPort, offset: at, payloadOffset: w.base + u.payloadOffset, payload: bytes.subarray(u.payloadOffset, u.payloadEnd) };
    } else if (type === NG_SPB) {
      const iface = ifaces[0];
      if (!iface) throw new DecodeError(name, `pcapng simple packet block at byte ${at}: no interface is described`, { offset: at });
      if (bodyEnd - body < 4) throw new DecodeError(name, `pcapng simple packet block at byte ${at} is too short`, { offset: at });
      const orig = dv.getUint32(body, le);
      data = body + 4;
      incl = Math.min(orig, bodyEnd - data, iface.snapLen > 0 ? iface.snapLen : Infinity);
      stats.records++;
      const u = udpOfFrame(bytes, dv, data, incl, iface.linkType, stats);
      // A simple packet block has no timestamp: it gets the previous packet's.
      if (u) yield { time: lastTime, srcPort: u.srcPort, dstPort: u.dstPort, offset: at, payloadOffset: w.base + u.payloadOffset, payload: bytes.subarray(u.payloadOffset, u.payloadEnd) };
    }
  }
}
