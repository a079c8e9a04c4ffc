/**
 * MCAP: reading ROS 2 bags (mcap-source.ts) and writing drive logs for ROS tools (mcap-writer.ts).
 */
import { memorySource } from '../log-source';
import { encodePointCloud2, POINT_CLOUD2_TYPE } from '../ros2/point-cloud2';
import { encodeTfMessage, TF_MESSAGE_TYPE } from '../ros2/tf-messages';
import { buildMcap } from './mcap-build';
import { mcapMessages, mcapPackets } from './mcap-source';
import { POINT_CLOUD2_SCHEMA, TF_MESSAGE_SCHEMA } from './ros2msg-schemas';
import type { FuzzTarget } from '../fuzz-target';

export { mcapMessages, mcapPackets, isMcap, MCAP_MAGIC, type McapReadSummary, type McapMessageOptions } from './mcap-source';
export { McapLogWriter, encodeMcapLog, type McapLogWriterOptions, type McapWriteSummary } from './mcap-writer';
export { buildMcap, zstdStored, crc32, type McapBuildMessage } from './mcap-build';
export { DECOMPRESS_HANDLERS, MAX_CHUNK_BYTES } from './compression';
export { POINT_CLOUD2_SCHEMA, TF_MESSAGE_SCHEMA } from './ros2msg-schemas';

/** A small MCAP bag: a moving tf and two PointCloud2 sweeps. */
function sampleMcap(compression: 'lz4' | 'zstd' | 'none', crc = true): Uint8Array {
  const t0 = 1_700_000_000n * 1_000_000_000n;
  const cloud = (k: number): Uint8Array => {
    const n = 10;
    const xyz = Float32Array.from({ length: 3 * n }, (_, i) => Math.cos(i + k) * 15);
    return encodePointCloud2({ stamp: 1_700_000_000 + k * 0.1, frameId: 'lidar' }, { count: n, xyz, time: Float32Array.from({ length: n }, (_, i) => i * 1e-3) });
  };
  const tf = (k: number): Uint8Array => encodeTfMessage([{ stamp: 1_700_000_000 + k * 0.1, parent: 'world', child: 'lidar', pose: [k, 0, 0, 0, 0, 0, 1] }]);
  return buildMcap(
    [0, 1, 2].flatMap((k) => [
      { topic: '/tf', type: TF_MESSAGE_TYPE, logTime: t0 + BigInt(k) * 100_000_000n, data: tf(k) },
      ...(k < 2 ? [{ topic: '/points', type: POINT_CLOUD2_TYPE, logTime: t0 + BigInt(k) * 100_000_000n + 1n, data: cloud(k) }] : []),
    ]),
    { compression, crc, schemaTexts: { [POINT_CLOUD2_TYPE]: POINT_CLOUD2_SCHEMA, [TF_MESSAGE_TYPE]: TF_MESSAGE_SCHEMA } },
  );
}

/** Decoders for the fuzz script: each must return or throw DecodeError on any bytes. */
export const FUZZ_TARGETS: FuzzTarget[] = [
  ...(['lz4', 'zstd', 'none'] as const).flatMap((c) => [
    { name: `mcap reader (${c})`, sample: () => sampleMcap(c), decode: (b: Uint8Array) => [...mcapMessages(memorySource('fuzz.mcap', b))].length },
    { name: `mcap → packets (${c})`, sample: () => sampleMcap(c), decode: (b: Uint8Array) => [...mcapPackets(memorySource('fuzz.mcap', b), { profile: null })].length },
  ]),
  // Without chunk CRCs the damage reaches the record, decompression and message decoders.
  ...(['lz4', 'none'] as const).map((c) => ({
    name: `mcap → packets (${c}, no CRC)`,
    sample: () => sampleMcap(c, false),
    decode: (b: Uint8Array) => [...mcapPackets(memorySource('fuzz.mcap', b), { profile: null })].length,
  })),
];
