import { describe, expect, it } from 'vitest';
import { CHUNK_ARRAY_FIELDS } from '../../../src-common/packets';
import { ApiError } from '../../../src-main/api/contract';
import { DEFAULT_CHUNK_BYTES, fromBlob, openProject, toBlob, type ProjectStore } from '../../../src-main/store';
import { bytes, lcg, makeChunk, useTempDir } from './helpers';

function insertModel(store: ProjectStore, name = 'm'): number {
  return Number(store.db.prepare(`INSERT INTO models (name, kind) VALUES (?, 'hybrid')`).run(name).lastInsertRowid);
}

describe('typed arrays in the store', () => {
  const tmp = useTempDir();

  it('round-trips 50 MB of Float32 byte-exact through writeArray/readArray across a reopen', () => {
    const n = 12_500_000; // 50 MB
    const words = new Uint32Array(n);
    const next = lcg(42);
    for (let i = 0; i < n; i++) words[i] = next();
    // Bit patterns float == would mishandle: NaNs with payloads, -0, ±Infinity, denormals.
    const specials = [0x7fc00000, 0x7fc01234, 0xffc00001, 0x7f800001, 0x80000000, 0x7f800000, 0xff800000, 0x00000001];
    specials.forEach((bits, k) => (words[k * 1_000_003] = bits));
    const floats = new Float32Array(words.buffer);

    const file = tmp.file('big.thicket');
    let store = openProject(file, { create: true });
    const modelId = insertModel(store);
    store.arrays('model_arrays').writeArray(modelId, 'elements', floats);
    const chunks = store.arrays('model_arrays').listArrays(modelId);
    expect(chunks).toEqual([{ name: 'elements', dtype: 'f32', length: n, chunks: Math.ceil((4 * n) / DEFAULT_CHUNK_BYTES) }]);
    store.close();

    store = openProject(file, { create: false });
    try {
      const back = store.arrays('model_arrays').readArray(modelId, 'elements', 'f32');
      expect(back).toBeInstanceOf(Float32Array);
      expect(back!.length).toBe(n);
      expect(back!.byteOffset).toBe(0);
      expect(back!.buffer.byteLength).toBe(4 * n); // its own buffer: transferable without extra bytes
      expect(bytes(back!).equals(bytes(words))).toBe(true);
      const backWords = new Uint32Array(back!.buffer);
      specials.forEach((bits, k) => expect(backWords[k * 1_000_003]).toBe(bits));
    } finally {
      store.close();
    }
  });

  it('keeps dtype, handles odd chunk sizes, empty arrays, replacement and missing arrays', () => {
    const store = openProject(tmp.file('dtypes.thicket'), { create: true });
    try {
      const id = insertModel(store);
      const arrays = store.arrays('model_arrays');
      const samples = [
        new Float64Array([Math.PI, -0, NaN, Infinity]),
        new Int8Array([-128, 0, 127]),
        new Uint8Array([0, 255, 1]),
        new Int16Array([-32768, 32767]),
        new Uint16Array([65535, 1, 2]),
        new Int32Array([-(2 ** 31), 2 ** 31 - 1]),
        new Uint32Array([2 ** 32 - 1, 0]),
      ];
      for (const a of samples) {
        arrays.writeArray(id, 'a', a, 9); // 9 bytes → rounded down to whole elements per chunk
        const back = arrays.readArray(id, 'a')!;
        expect(back.constructor).toBe(a.constructor);
        expect(bytes(back).equals(bytes(a))).toBe(true);
      }
      expect(arrays.listArrays(id)).toHaveLength(1); // each write replaced the previous one

      // A view into a larger buffer stores only its own bytes.
      const big = new Float32Array([1, 2, 3, 4, 5, 6]);
      arrays.writeArray(id, 'view', big.subarray(2, 5), 4);
      expect(Array.from(arrays.readArray(id, 'view', 'f32')!)).toEqual([3, 4, 5]);

      arrays.writeArray(id, 'empty', new Float32Array(0));
      const empty = arrays.readArray(id, 'empty', 'f32');
      expect(empty).toBeInstanceOf(Float32Array);
      expect(empty!.length).toBe(0);
      expect(arrays.readArray(id, 'missing')).toBeNull();
      expect(() => arrays.readArray(id, 'view', 'u16')).toThrow(ApiError);
      expect(() => arrays.writeArray(id, 'x', new Float64Array(2), 4)).toThrow(/holds no f64/);

      // Arrays go with their owner.
      store.db.prepare('DELETE FROM models WHERE id = ?').run(id);
      expect(arrays.listArrays(id)).toEqual([]);
      // Only allow-listed tables are addressable.
      expect(() => store.arrays('models; DROP TABLE jobs' as 'model_arrays')).toThrow(/not an array table/);
    } finally {
      store.close();
    }
  });

  it('toBlob shares memory; fromBlob copies into a fresh aligned buffer', () => {
    const a = new Float32Array([1, 2, 3]);
    const blob = toBlob(a);
    expect(blob.buffer).toBe(a.buffer);
    const unaligned = Buffer.concat([Buffer.from([9]), blob]).subarray(1);
    const back = fromBlob(unaligned, 'f32');
    expect(Array.from(back)).toEqual([1, 2, 3]);
    expect(back.buffer.byteLength).toBe(12);
    expect(() => fromBlob(Buffer.alloc(5), 'f32')).toThrow(/not a whole number/);
  });

  it('round-trips PacketChunks through the logs repository, all 8 fields, NaN ranges kept', () => {
    const file = tmp.file('chunks.thicket');
    const written = [makeChunk(0, 10, 128, 1), makeChunk(10, 1, 0, 2), makeChunk(11, 25, 64, 3)];
    let store = openProject(file, { create: true });
    const logId = store.logs.beginImport({ name: 'drive', format: 'pcd', sourcePath: '/x/y.pcd', profileId: null, jobId: null });
    written.forEach((c, seq) => store.logs.appendChunk(logId, seq, c));
    store.logs.finishImport(logId, {
      packets: 36, points: 2880, hits: 1920, misses: 960, durationS: 3.5,
      bounds: { min: [-1, -2, -3], max: [1, 2, 3] },
    });
    store.close();

    store = openProject(file, { create: false });
    try {
      const read = [...store.logs.chunks(logId)];
      expect(read).toHaveLength(written.length);
      read.forEach((c, i) => {
        const w = written[i]!;
        expect([c.packetStart, c.packetCount, c.rayCount]).toEqual([w.packetStart, w.packetCount, w.rayCount]);
        for (const f of CHUNK_ARRAY_FIELDS) {
          expect(c[f].constructor, f).toBe(w[f].constructor);
          expect(bytes(c[f]).equals(bytes(w[f])), f).toBe(true);
          expect(c[f].buffer.byteLength, f).toBe(c[f].byteLength);
        }
      });
      const first = read[0]!;
      expect(Number.isNaN(first.rayRange[2])).toBe(true);
      expect(new Uint32Array(first.rayRange.buffer)[0]).toBe(0x7fc01234);
      const info = store.logs.get(logId)!;
      expect(info).toMatchObject({
        name: 'drive', format: 'pcd', sourcePath: '/x/y.pcd', packets: 36, points: 2880, hits: 1920, misses: 960,
        durationS: 3.5, bounds: { min: [-1, -2, -3], max: [1, 2, 3] },
      });
      expect(info.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      store.close();
    }
  });
});
