/**
 * LAS 1.0–1.4 and LAZ, read as a log (georeferenced coordinates relative to a whole-metre
 * origin; ASPRS classes mapped to the site's), and LAS 1.4 point format 6 as an export (every
 * hit in the world frame, the ring as an extra-bytes field).
 */
import type { SourceRecord } from '../../../src-common/source-record';
import { countHits } from '../chunk-points';
import type { ExportFormatDescriptor, LogFormatDescriptor, PacketStream } from '../log-format';
import type { ByteSource } from '../log-source';
import { scanPackets } from '../scan-packets';
import { FUZZ_TARGETS, initLaz } from './las';
import { encodeLasFromChunks } from './las-encode';
import { decodeLasSource, lasSourceOptions } from './las-source';

const LASF = [0x4c, 0x41, 0x53, 0x46];

export const lasFormat: LogFormatDescriptor<'las'> = {
  info: {
    id: 'las',
    label: 'LAS / LAZ point cloud',
    extensions: ['.las', '.laz'],
    kind: 'scan',
    hitOnly: true,
    needs: { calibration: 'optional', profile: 'rebuilds-misses', ownPoses: null },
  },
  detect: { magic: (head) => LASF.every((b, i) => head[i] === b) },
  // LAZ decompression is WebAssembly, loaded once per worker.
  prepare: initLaz,
  open: ({ src, name }) => lasPackets(src, name),
  fuzz: FUZZ_TARGETS,
};

/** The scan as one packet; what the file holds beside its points goes with the log (las-source.ts). */
function* lasPackets(src: ByteSource, name: string): PacketStream {
  let source: SourceRecord | null = null;
  const info = yield* scanPackets(src, name, 'las', (bytes, n) => {
    const r = decodeLasSource(bytes, n);
    source = r.source;
    return r.cloud;
  });
  return source ? { ...info, source } : info;
}

export const lasExport: ExportFormatDescriptor<'las'> = {
  info: { id: 'las', label: 'LAS — every hit in the world frame', folder: false, extension: '.las' },
  write(chunks, out, _ctx, opts) {
    const hits = chunks.reduce((n, c) => n + countHits(c), 0);
    const restore = opts?.source?.format === 'las' ? lasSourceOptions(opts.source, hits) : {};
    // Labelled since import: the labels' codes (the class list's), not the source's.
    const labelled = opts?.asprsOf ? { codes: null, asprsOf: opts.asprsOf } : {};
    const bytes = encodeLasFromChunks(chunks, { ...restore, ...labelled, world: true, version: opts?.lasVersion ?? '1.4' });
    out.writeFile('', bytes);
    return { files: 1, points: hits, bytes: bytes.byteLength, scans: 1 };
  },
};
