/**
 * How a packet capture is recognised: a classic pcap magic (either byte order, µs or ns) or a
 * pcapng section header, else a .pcap / .pcapng name. Velodyne and Ouster captures are both
 * plain UDP in such files, so their descriptors share this.
 */
import { isPcap, isPcapng } from './pcap';

export const PCAP_EXTENSIONS: readonly string[] = ['.pcap', '.pcapng'];

export const isCaptureHead = (head: Uint8Array): boolean => isPcap(head) || isPcapng(head);
