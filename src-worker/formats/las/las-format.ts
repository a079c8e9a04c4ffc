/**
 * LAS 1.0–1.4 and LAZ, read as a log (georeferenced coordinates relative to a whole-metre
 * origin; ASPRS classes mapped to the site's), and LAS 1.4 point format 6 as an export (every
 * hit in the world frame, the ring as an extra-bytes field).
 */
import { countHits } from '../chunk-points';
import type { ExportFormatDescriptor, LogFormatDescriptor } from '../log-format';
import { scanPackets } from '../scan-packets';
import { decodeLas, FUZZ_TARGETS, initLaz } from './las';
import { lasClassesToSite } from './las-classes';
import { encodeLasFromChunks } from './las-encode';

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
  open: ({ src, name }) =>
    scanPackets(src, name, 'las', (bytes, n) => {
      const cloud = decodeLas(bytes, n);
      lasClassesToSite(cloud.cls, bytes);
      return cloud;
    }),
  fuzz: FUZZ_TARGETS,
};

export const lasExport: ExportFormatDescriptor<'las'> = {
  info: { id: 'las', label: 'LAS — every hit in the world frame', folder: false, extension: '.las' },
  write(chunks, out) {
    const bytes = encodeLasFromChunks(chunks, { world: true });
    out.writeFile('', bytes);
    return { files: 1, points: chunks.reduce((n, c) => n + countHits(c), 0), bytes: bytes.byteLength, scans: 1 };
  },
};
