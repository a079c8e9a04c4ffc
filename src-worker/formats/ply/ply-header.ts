/**
 * The text header of a PLY file (Stanford polygon format): `ply`, a `format` line, then
 * `element NAME COUNT` lines each followed by its `property TYPE NAME` or
 * `property list COUNT_TYPE ITEM_TYPE NAME` lines, `comment`/`obj_info` anywhere, `end_header`.
 * Errors name the header line.
 */
import { DecodeError } from '../decode-error';

export type PlyFormat = 'ascii' | 'binary_little_endian' | 'binary_big_endian';
export type PlyType = 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'float32' | 'float64';

/** Both spellings of each type: the original names (char, uchar, ...) and the sized aliases. */
const TYPES: Record<string, PlyType> = {
  char: 'int8', int8: 'int8', uchar: 'uint8', uint8: 'uint8',
  short: 'int16', int16: 'int16', ushort: 'uint16', uint16: 'uint16',
  int: 'int32', int32: 'int32', uint: 'uint32', uint32: 'uint32',
  float: 'float32', float32: 'float32', double: 'float64', float64: 'float64',
};

export const PLY_TYPE_SIZE: Record<PlyType, number> = {
  int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, float64: 8,
};

export interface PlyProperty {
  name: string;
  type: PlyType;
  /** For a list property, the type of its leading count (the items are `type`). */
  countType: PlyType | null;
  /** Byte offset within a record when every property before it has a fixed size, else -1. */
  offset: number;
}

export interface PlyElement {
  name: string;
  count: number;
  properties: PlyProperty[];
  /** Record size in bytes, or -1 when the element has a list property (variable size). */
  recordSize: number;
  /** Smallest possible record: lists taken as empty. */
  minRecordSize: number;
  line: number;
}

export interface PlyHeader {
  format: PlyFormat;
  elements: PlyElement[];
  comments: string[];
  /** Byte offset of the first data byte (after end_header's line break). */
  dataOffset: number;
  /** 1-based line number of end_header. */
  endLine: number;
}

/** A header longer than this is not a PLY header (keeps a binary file from being scanned whole). */
const MAX_HEADER = 1 << 20;

export function parsePlyHeader(bytes: Uint8Array, name: string): PlyHeader {
  let pos = 0;
  let lineNo = 0;
  let format: PlyFormat | null = null;
  const elements: PlyElement[] = [];
  const comments: string[] = [];
  const limit = Math.min(bytes.length, MAX_HEADER);
  for (;;) {
    if (pos >= limit) {
      const why = pos >= MAX_HEADER ? `no end_header in the first ${MAX_HEADER} bytes` : 'the file ends before end_header';
      throw new DecodeError(name, `header: ${why}`, { line: lineNo + 1, offset: pos });
    }
    let nl = bytes.indexOf(10, pos);
    if (nl < 0 || nl >= limit) nl = limit;
    let text = '';
    for (let i = pos; i < nl; i++) {
      const c = bytes[i]!;
      if (c !== 9 && c !== 13 && (c < 32 || c > 126)) {
        throw new DecodeError(name, `header: byte ${i} is 0x${c.toString(16).padStart(2, '0')}, not text (a PLY header is ASCII lines, the first "ply")`, { line: lineNo + 1, offset: i });
      }
      text += String.fromCharCode(c);
    }
    lineNo++;
    pos = nl + 1;
    const line = text.trim();
    const words = line.split(/\s+/);
    const key = words[0]!;
    if (lineNo === 1) {
      if (line !== 'ply') throw new DecodeError(name, `header: the first line must be "ply", found "${line.slice(0, 40)}"`, { line: 1 });
      continue;
    }
    if (key === 'comment' || key === 'obj_info') {
      comments.push(line.slice(key.length).trim());
      continue;
    }
    if (line === '') continue;
    if (key === 'format') {
      if (format) throw new DecodeError(name, 'header: a second format line', { line: lineNo });
      const f = words[1];
      if (f !== 'ascii' && f !== 'binary_little_endian' && f !== 'binary_big_endian') {
        throw new DecodeError(name, `header: unknown format "${f ?? ''}" (ascii, binary_little_endian or binary_big_endian)`, { line: lineNo });
      }
      if (words[2] !== '1.0' && words[2] !== '1') throw new DecodeError(name, `header: unsupported PLY version "${words[2] ?? ''}" (1.0)`, { line: lineNo });
      format = f;
      continue;
    }
    if (!format) throw new DecodeError(name, `header: "${key}" before the format line`, { line: lineNo });
    if (key === 'element') {
      const count = Number(words[2]);
      if (words.length !== 3 || !/^\d+$/.test(words[2]!) || !Number.isSafeInteger(count)) {
        throw new DecodeError(name, `header: expected "element NAME COUNT" with a whole COUNT, found "${line.slice(0, 60)}"`, { line: lineNo });
      }
      elements.push({ name: words[1]!, count, properties: [], recordSize: 0, minRecordSize: 0, line: lineNo });
      continue;
    }
    if (key === 'property') {
      const el = elements[elements.length - 1];
      if (!el) throw new DecodeError(name, 'header: property before any element', { line: lineNo });
      el.properties.push(parseProperty(words, el, name, lineNo));
      continue;
    }
    if (key === 'end_header') {
      if (!format) throw new DecodeError(name, 'header: no format line', { line: lineNo });
      return { format, elements, comments, dataOffset: pos, endLine: lineNo };
    }
    throw new DecodeError(name, `header: unknown keyword "${key.slice(0, 40)}"`, { line: lineNo });
  }
}

function parseProperty(words: string[], el: PlyElement, name: string, line: number): PlyProperty {
  const type = (w: string | undefined): PlyType => {
    const t = w === undefined ? undefined : TYPES[w];
    if (!t) throw new DecodeError(name, `header: unknown property type "${(w ?? '').slice(0, 20)}"`, { line });
    return t;
  };
  let prop: PlyProperty;
  if (words[1] === 'list') {
    if (words.length !== 5) throw new DecodeError(name, 'header: expected "property list COUNT_TYPE ITEM_TYPE NAME"', { line });
    const countType = type(words[2]);
    if (countType === 'float32' || countType === 'float64') throw new DecodeError(name, `header: a list count must be an integer type, found ${words[2]}`, { line });
    prop = { name: words[4]!, type: type(words[3]), countType, offset: -1 };
  } else {
    if (words.length !== 3) throw new DecodeError(name, 'header: expected "property TYPE NAME"', { line });
    prop = { name: words[2]!, type: type(words[1]), countType: null, offset: el.recordSize };
  }
  // Sizes: a list makes the record variable; offsets stay valid only before the first list.
  if (prop.countType) {
    el.minRecordSize += PLY_TYPE_SIZE[prop.countType];
    el.recordSize = -1;
  } else {
    el.minRecordSize += PLY_TYPE_SIZE[prop.type];
    if (el.recordSize >= 0) el.recordSize += PLY_TYPE_SIZE[prop.type];
    else prop.offset = -1;
  }
  return prop;
}
