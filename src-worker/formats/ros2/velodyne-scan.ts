/**
 * velodyne_msgs/msg/VelodyneScan (ROS 2, CDR): the raw UDP packets of one sweep as the velodyne
 * and nebula drivers record them.
 *
 *   std_msgs/Header header
 *   velodyne_msgs/VelodynePacket[] packets     # builtin_interfaces/Time stamp; uint8[1206] data
 */
import { CdrWriter } from '@foxglove/cdr';
import { decodeMessage, toRosTime, type MessagePlace, type RosHeader } from './cdr';

export const VELODYNE_SCAN_TYPE = 'velodyne_msgs/msg/VelodyneScan';
const PACKET_BYTES = 1206;

export interface VelodyneScanPacket {
  /** Seconds (the driver's receive or GPS-derived time of the packet). */
  stamp: number;
  /** The 1206-byte data packet: a view into the message (copy to keep it). */
  data: Uint8Array;
  /** Byte offset of `data` within the message. */
  offset: number;
}

export interface VelodyneScan {
  header: RosHeader;
  packets: VelodyneScanPacket[];
}

export function decodeVelodyneScan(data: Uint8Array, place: MessagePlace): VelodyneScan {
  return decodeMessage(data, VELODYNE_SCAN_TYPE, place, (c) => {
    const header = c.header();
    // A packet is at least its 8-byte stamp and 1206 bytes of data.
    const n = c.seq('packets', 8 + PACKET_BYTES);
    const packets: VelodyneScanPacket[] = [];
    for (let i = 0; i < n; i++) {
      const stamp = c.time(`packets[${i}].stamp`);
      const offset = c.offset;
      packets.push({ stamp, data: c.bytes(PACKET_BYTES, `packets[${i}].data`), offset });
    }
    return { header, packets };
  });
}

/** The CDR bytes of a VelodyneScan (tests, fuzzing, and re-export of packet logs). */
export function encodeVelodyneScan(scan: { header: RosHeader; packets: { stamp: number; data: Uint8Array }[] }): Uint8Array {
  const w = new CdrWriter({ size: 64 + scan.packets.length * (PACKET_BYTES + 12) });
  const t = toRosTime(scan.header.stamp);
  w.int32(t.sec).uint32(t.nanosec).string(scan.header.frameId);
  w.sequenceLength(scan.packets.length);
  for (const p of scan.packets) {
    if (p.data.byteLength !== PACKET_BYTES) throw new RangeError(`a VelodynePacket holds ${PACKET_BYTES} bytes, got ${p.data.byteLength}`);
    const s = toRosTime(p.stamp);
    w.int32(s.sec).uint32(s.nanosec).uint8Array(p.data, false);
  }
  return w.data.slice();
}
