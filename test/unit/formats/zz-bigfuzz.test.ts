import { it } from 'vitest';
import { DecodeError } from '/work/main/src-worker/formats/decode-error';
import { decodePcd } from '/work/main/src-worker/formats/pcd';
import { decodeKittiBin } from '/work/main/src-worker/formats/kitti-bin';
import { encodePcd } from '/work/main/src-worker/formats/pcd-encode';
import { expectConsistent, sampleCloud } from '/work/main/test/unit/formats/helpers';
import { mutate, seededRandom } from '/work/main/test/unit/formats/mutate';
it('big fuzz', () => {
  const cloud = sampleCloud(40, 7);
  const inputs: [string, Uint8Array, (b: Uint8Array) => unknown][] = [
    ['ascii', encodePcd(cloud, 'ascii'), (b) => decodePcd(b, 'f')],
    ['binary', encodePcd(cloud, 'binary'), (b) => decodePcd(b, 'f')],
    ['bc', encodePcd(cloud, 'binary_compressed'), (b) => decodePcd(b, 'f')],
    ['kitti', new Uint8Array(640), (b) => decodeKittiBin(b, 'f')],
  ];
  for (const [label, valid, dec] of inputs) {
    const rnd = seededRandom(1234);
    const reasons = new Map<string, number>();
    let ok = 0, slow = 0;
    for (let k = 0; k < 100000; k++) {
      const { bytes } = mutate(valid, rnd);
      const t0 = performance.now();
      try { expectConsistent(dec(bytes) as never); ok++; } catch (e) {
        if (!(e instanceof DecodeError)) throw new Error(`${label} run ${k}: ${String(e)}`);
        const r = e.reason.replace(/[\d"].*$/, '').slice(0, 40);
        reasons.set(r, (reasons.get(r) ?? 0) + 1);
      }
      if (performance.now() - t0 > 20) slow++;
    }
    console.log(label, 'ok', ok, 'slow', slow, [...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25));
  }
}, 600000);
