/**
 * What an imported file held that a drive log's packets do not, kept with the log so that an
 * export to the same format restores it (a LAS file's scale, offsets, coordinate-system records,
 * clock and class codes: docs/drive-logs.md, "LAS export").
 */
export interface SourceRecord {
  /** The format that wrote it and whose exporter reads it ('las'). */
  format: string;
  /** JSON-able facts of the source's header; what they are is the format's business. */
  meta: Record<string, unknown>;
  /** The source's class code of every hit, in the log's hit order; null = none kept. */
  classes: Uint8Array | null;
}
