/**
 * Files cut mid-record (a full disk, a killed recorder, a partial copy) keep every complete
 * record, with a warning saying how many bytes were dropped — as VeloView and Wireshark read a
 * cut capture — instead of failing (docs/drive-logs.md, "Truncated files"). What a complete
 * record is depends on the format: a pcap record, an MCAP record, a whole point of a KITTI
 * .bin, a binary PCD or PLY, or an uncompressed LAS file.
 */

/** The warning for a file cut at byte `at` (the end of the last complete record). */
export function truncationWarning(name: string, at: number, droppedBytes: number, kept: string): string {
  return `${name}: truncated at byte ${at}: the last ${droppedBytes} byte(s), an incomplete record, were dropped; ${kept} were kept`;
}

/**
 * Fixed-size records from byte `start`: how many of the `declared` ones the `fileSize` bytes
 * hold whole, and the warning when that is fewer; null when every declared record is there,
 * or when not even one is (the decoder then fails as before: there is nothing to keep).
 */
export function wholeRecords(name: string, fileSize: number, start: number, declared: number, recordSize: number, unit: 'points' | 'vertices'): { kept: number; warning: string } | null {
  if (recordSize <= 0 || start + declared * recordSize <= fileSize) return null;
  const kept = Math.max(0, Math.floor((fileSize - start) / recordSize));
  if (kept === 0) return null;
  const at = start + kept * recordSize;
  return { kept, warning: truncationWarning(name, at, fileSize - at, `${kept} of the ${declared} ${unit} declared`) };
}
