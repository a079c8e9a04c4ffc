/**
 * A reader of PCD that Thicket did not write, for checking its PCD export: loaders.gl's
 * PCDLoader. It reads a `label` field (as an int32) but hands it back under COLOR_0, cut to a
 * byte — enough for class ids, which are 0–255 (docs/labeling.md).
 */
import { PCDLoader } from '@loaders.gl/pcd';

export interface LoadersGlPcd {
  count: number;
  fields: string[];
  position: Float32Array;
  /** The `label` field as loaders.gl returns it; null when it found none. */
  label: Uint8Array | null;
}

export async function readPcdWithLoadersGl(bytes: Uint8Array): Promise<LoadersGlPcd> {
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const m = (await PCDLoader.parse(ab)) as unknown as {
    header: { vertexCount: number };
    loaderData: { fields: string[] };
    attributes: { POSITION: { value: Float32Array }; COLOR_0?: { value: Uint8Array } };
  };
  const hasLabel = m.loaderData.fields.includes('label');
  return {
    count: m.header.vertexCount,
    fields: [...m.loaderData.fields],
    position: m.attributes.POSITION.value,
    label: hasLabel && m.attributes.COLOR_0 ? m.attributes.COLOR_0.value : null,
  };
}
