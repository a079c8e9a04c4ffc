/**
 * Every decoder the fuzzer exercises: a name, a small valid sample (built in code, so the
 * fuzzer needs no data files), and a decode that must return or throw DecodeError. Formats
 * export their own FUZZ_TARGETS beside their decoders; the ones below wrap the older decoders.
 * Imported lazily so a worker loads the decoders only once.
 */
export interface FuzzTarget {
  name: string;
  sample: () => Uint8Array;
  decode: (bytes: Uint8Array) => unknown;
}

export async function fuzzTargets(): Promise<FuzzTarget[]> {
  const [{ decodeKittiBin }, { decodePcd }, { encodePcd }, { udpPackets }, { memorySource }, { velodynePcapPackets }, builders, helpers] = await Promise.all([
    import('../src-worker/formats/kitti/kitti-bin'),
    import('../src-worker/formats/pcd/pcd'),
    import('../src-worker/formats/pcd/pcd-encode'),
    import('../src-worker/formats/pcap'),
    import('../src-worker/formats/log-source'),
    import('../src-worker/formats/velodyne/velodyne-pcap'),
    import('../src-worker/formats/pcap-build'),
    import('../test/unit/formats/helpers'),
  ]);
  const own = await Promise.all([
    import('../src-worker/formats/ouster/ouster-packet'),
    import('../src-worker/formats/ply/ply'),
    import('../src-worker/formats/las/las'),
    import('../src-worker/formats/poses-file'),
    import('../src-worker/formats/ros2'),
    import('../src-worker/formats/mcap'),
  ]);
  const cloud = helpers.sampleCloud(40, 7);

  /** Four VLP-16 data packets and a position packet, as a pcap. */
  const velodynePcap = (): Uint8Array => {
    const frames = [];
    for (let k = 0; k < 4; k++) {
      const p = new Uint8Array(1206);
      const dv = new DataView(p.buffer);
      for (let b = 0; b < 12; b++) {
        p[b * 100] = 0xff;
        p[b * 100 + 1] = 0xee;
        dv.setUint16(b * 100 + 2, (k * 2400 + b * 20) % 36000, true);
        for (let c = 0; c < 32; c++) dv.setUint16(b * 100 + 4 + 3 * c, (b * 37 + c * 11) % 5 === 0 ? 0 : 1000 + b * 50 + c, true);
      }
      dv.setUint32(1200, 1000 + k * 1327, true);
      p[1204] = 0x37;
      p[1205] = 0x22;
      frames.push({ time: 1 + k * 0.001327, data: builders.ethernet(builders.ipv4Udp(p, { dst: 2368 })) });
    }
    const pos = new Uint8Array(512);
    pos.set(new TextEncoder().encode('$GPRMC,220516,A,5133.82,N,00042.24,W,173.8,231.8,130694,004.2,W*70'), 206);
    frames.push({ time: 1.01, data: builders.ethernet(builders.ipv4Udp(pos, { dst: 8308 })) });
    return builders.buildPcap(frames);
  };

  const targets: FuzzTarget[] = [
    {
      name: 'kitti-bin',
      sample: () => new Uint8Array(Float32Array.from({ length: 160 }, (_, i) => Math.sin(i) * 50).buffer),
      decode: (b) => decodeKittiBin(b, 'f.bin'),
    },
    ...(['ascii', 'binary', 'binary_compressed'] as const).map((data) => ({
      name: `pcd ${data}`,
      sample: () => encodePcd(cloud, data),
      decode: (b: Uint8Array) => decodePcd(b, 'f.pcd'),
    })),
    { name: 'pcap', sample: velodynePcap, decode: (b) => [...udpPackets(b, 'f.pcap')].length },
    {
      name: 'velodyne-pcap',
      sample: velodynePcap,
      decode: (b) => {
        let rays = 0;
        for (const p of velodynePcapPackets(memorySource('f.pcap', b), { name: 'f.pcap' })) rays += p.count;
        return rays;
      },
    },
  ];
  for (const m of own) targets.push(...m.FUZZ_TARGETS);
  return targets;
}
