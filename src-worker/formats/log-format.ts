/**
 * What a format descriptor is. Each log format has one file (velodyne/velodyne-pcap-format.ts,
 * …) exporting one LogFormatDescriptor: its plain facts, how its files are recognised, how the
 * import task opens it as a packet stream, and the fuzz targets that must never crash it. An
 * export format has an ExportFormatDescriptor, kept beside the reader of the same format where
 * there is one. registry.ts lists them all; nothing else names a format id.
 */
import type { ExportFormat, LogFormat } from '../../src-common/formats';
import type { ExportFormatInfo, LogFormatInfo } from '../../src-common/format-info';
import type { PacketChunk } from '../../src-common/packets';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { SourceRecord } from '../../src-common/source-record';
import type { ByteSource, DecodeContext, DecodedPacket, LogSourceInfo } from './log-source';
import type { BagDatabase } from './ros2/bag-database';
import type { FuzzTarget } from './fuzz-target';

/** What a format's packets end with: what the decoder learnt, and points a scan dropped. */
export type PacketStream = Generator<DecodedPacket, LogSourceInfo & { dropped?: number }, void>;

/** Everything the import task hands a format to open a log. */
export interface OpenLogInput {
  src: ByteSource;
  /** The file's display name, for errors. */
  name: string;
  /** The file on this machine (absent for an upload of a format that reads bytes). */
  path: string | null;
  /** Decodes sensor packets (a unit's calibration or a built-in); null = from the data. */
  profile: SensorProfile | null;
  /** The format's own metadata file when it needs one (an Ouster capture's JSON). */
  metadata: { name: string; text: string } | null;
  ctx: DecodeContext;
  /** Opens `path` as a SQLite bag: only the task layer can (better-sqlite3). */
  openBag(path: string): BagDatabase;
}

export interface FormatDetection {
  /** True when the first bytes carry the format's signature (checked before any name). */
  magic?: (head: Uint8Array) => boolean;
  /**
   * After no signature matched: true when the name (lower case) or a textual header says this
   * format. Default: the name ends with one of the format's extensions.
   */
  byName?: (lowerName: string, head: Uint8Array) => boolean;
  /**
   * Only when the import comes with a JSON calibration (an Ouster capture's metadata): the
   * same UDP captures are another format's without one. Checked before the formats that
   * share the signature.
   */
  onlyWithJsonCalibration?: boolean;
}

export interface LogFormatDescriptor<Id extends LogFormat = LogFormat> {
  info: LogFormatInfo<Id>;
  detect: FormatDetection;
  /**
   * The calibration file is the format's own metadata (an Ouster capture's JSON): handed to
   * `open` as `metadata` rather than made a profile. `missing` says what an import without it
   * lacks, e.g. "an Ouster capture needs its metadata JSON".
   */
  calibrationIsMetadata?: { missing: string };
  /** Read from a file path, not a ByteSource (SQLite reads files): uploads go to a temporary file. */
  readsFilePath?: boolean;
  /** One-time set-up per worker before the first open (e.g. loading a WebAssembly decoder). */
  prepare?: () => Promise<void>;
  open(input: OpenLogInput): PacketStream;
  /** Valid samples and the decoders fed their mutations (npm run fuzz). */
  fuzz: readonly FuzzTarget[];
}

/** Where an exporter writes: the task implements it over `fs`, tests over memory. */
export interface ExportOutput {
  /** Writes a whole file: `rel` '' is the output itself, else a path inside the output folder. */
  writeFile(rel: string, bytes: Uint8Array | string): void;
  /** Creates a folder inside the output folder (and the output folder). */
  mkdir(rel: string): void;
  /** Opens the output file for writes in order; the exporter closes it. */
  openStream(): { write(bytes: Uint8Array): void; close(): void };
}

/** What an export wrote (the task adds the format and the output path). */
export interface ExportCounts {
  /** Files written (kitti: scans + poses.txt + times.txt). */
  files: number;
  points: number;
  bytes: number;
  /** Scans (kitti) or messages (mcap); 1 for single-cloud formats. */
  scans: number;
}

/** What an export knows of its log besides the chunks. */
export interface ExportOptions {
  /** What the log's source file held (the LAS exporter restores it); absent for runs. */
  source?: SourceRecord | null;
  /** The LAS version to write (default '1.4'). */
  lasVersion?: '1.2' | '1.4';
  /** Unix seconds of the log's first packet (the capture's clock); absent or 0: none. */
  startTime?: number;
  /** MCAP: one PointCloud2 per revolution (default) or per packet. */
  mcapMessages?: 'revolution' | 'packet';
  /**
   * LAS: the ASPRS code of each class id (256 entries, the project's class list), given once the
   * log has been labelled (docs/labeling.md): the labels then decide the codes, not the source's.
   */
  asprsOf?: readonly number[] | null;
}

export interface ExportFormatDescriptor<Id extends ExportFormat = ExportFormat> {
  info: ExportFormatInfo<Id>;
  write(chunks: PacketChunk[], out: ExportOutput, ctx: DecodeContext, opts?: ExportOptions): ExportCounts | Promise<ExportCounts>;
}
