/**
 * A drive log's labels as saved versions, and the project's class list (docs/labeling.md).
 *
 * A version holds, per ray of the log in log order (misses included), a class (u8) and an object
 * id (u32), and for automatic proposals a confidence (f32); each array deflated. Saving a version
 * also writes its arrays beside each of the log's chunks (label_class, label_object), which chunk
 * reads put in place of the imported classes — so fitting, extraction, evaluation and display see
 * the newest labels without knowing about versions. Earlier versions stay, to compare or go back to.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { ApiError, type AnnotationEntry, type LabelVersionInfo } from '../api/contract';
import type { LabelClassDef } from '../../src-common/label-classes';
import { fromBlob, toBlob } from './typed-blobs';
import { writeTransaction } from './write-transaction';

interface VersionRow {
  id: number;
  log_id: number;
  version: number;
  source: LabelVersionInfo['source'];
  author: string;
  note: string;
  created_at: string;
  points: number;
  labelled: number;
  counts: string;
  changed: number | null;
  objects: number;
}

const INFO_COLUMNS = 'id, log_id, version, source, author, note, created_at, points, labelled, counts, changed, objects';

const toInfo = (r: VersionRow): LabelVersionInfo => ({
  id: r.id, logId: r.log_id, version: r.version, source: r.source, author: r.author, note: r.note, createdAt: r.created_at,
  points: r.points, labelled: r.labelled, counts: JSON.parse(r.counts) as LabelVersionInfo['counts'], changed: r.changed, objects: r.objects,
});

/** Per ray of the log, in log order. */
export interface RayLabels {
  rayClass: Uint8Array<ArrayBuffer>;
  rayObject: Uint32Array<ArrayBuffer>;
  /** Automatic proposals only: 0–1 per ray. */
  confidence: Float32Array<ArrayBuffer> | null;
}

export interface LabelVersionData extends RayLabels {
  info: LabelVersionInfo;
  entries: AnnotationEntry[];
}

export interface NewLabelVersion extends RayLabels {
  source: LabelVersionInfo['source'];
  author: string;
  note: string;
  entries: readonly AnnotationEntry[];
  /** Which rays are returns (1) — the points the counts are over. */
  hit: Uint8Array;
}

const deflate = (a: ArrayBufferView): Buffer => deflateRawSync(toBlob(a));
const inflate = (b: Buffer): Buffer => inflateRawSync(b);

export class LabelsRepository {
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    this.stmts = {
      classes: db.prepare<[], LabelClassDef>(`SELECT id, name, color, asprs FROM label_classes ORDER BY id`),
      clearClasses: db.prepare(`DELETE FROM label_classes`),
      insertClass: db.prepare<[number, string, string, number]>(`INSERT INTO label_classes (id, name, color, asprs) VALUES (?, ?, ?, ?)`),
      versions: db.prepare<[number], VersionRow>(`SELECT ${INFO_COLUMNS} FROM label_versions WHERE log_id = ? ORDER BY version`),
      latest: db.prepare<[number], VersionRow>(`SELECT ${INFO_COLUMNS} FROM label_versions WHERE log_id = ? ORDER BY version DESC LIMIT 1`),
      byVersion: db.prepare<[number, number], VersionRow & { classes: Buffer; instances: Buffer; confidence: Buffer | null; entries: string }>(
        `SELECT ${INFO_COLUMNS}, classes, instances, confidence, entries FROM label_versions WHERE log_id = ? AND version = ?`,
      ),
      insert: db.prepare<unknown[]>(
        `INSERT INTO label_versions (log_id, version, source, author, note, points, labelled, counts, changed, objects, classes, instances, confidence, entries)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      chunkRays: db.prepare<[number], { seq: number; ray_count: number }>(`SELECT seq, ray_count FROM log_chunks WHERE log_id = ? ORDER BY seq`),
      setChunkLabels: db.prepare<[Buffer, Buffer, number, number]>(`UPDATE log_chunks SET label_class = ?, label_object = ? WHERE log_id = ? AND seq = ?`),
      logStatus: db.prepare<[number], string>(`SELECT status FROM drive_logs WHERE id = ?`).pluck(),
    };
  }

  /** The project's own class rows (the built-in list applies where it has none). */
  classRows(): LabelClassDef[] {
    return this.stmts.classes.all();
  }

  /** Replaces the project's class rows. */
  saveClassRows(rows: readonly LabelClassDef[]): void {
    writeTransaction(this.db, () => {
      this.stmts.clearClasses.run();
      for (const r of rows) this.stmts.insertClass.run(r.id, r.name, r.color, r.asprs);
    });
  }

  versions(logId: number): LabelVersionInfo[] {
    return this.stmts.versions.all(logId).map(toInfo);
  }

  latest(logId: number): LabelVersionInfo | null {
    const r = this.stmts.latest.get(logId);
    return r ? toInfo(r) : null;
  }

  read(logId: number, version: number): LabelVersionData | null {
    const r = this.stmts.byVersion.get(logId, version);
    if (!r) return null;
    const where = `labels of drive log ${logId} version ${version}`;
    return {
      info: toInfo(r),
      rayClass: fromBlob(inflate(r.classes), 'u8', `${where} classes`),
      rayObject: fromBlob(inflate(r.instances), 'u32', `${where} objects`),
      confidence: r.confidence ? fromBlob(inflate(r.confidence), 'f32', `${where} confidence`) : null,
      entries: JSON.parse(r.entries) as AnnotationEntry[],
    };
  }

  /** The log's rays: total and per chunk (seq order). */
  rayLayout(logId: number): { rays: number; chunks: { seq: number; rays: number }[] } {
    const chunks = this.stmts.chunkRays.all(logId).map((r) => ({ seq: r.seq, rays: r.ray_count }));
    return { rays: chunks.reduce((a, c) => a + c.rays, 0), chunks };
  }

  /**
   * Saves a new version (the next number) and makes it the log's labels. `baseVersion` is the
   * version the edit started from: another saved since is a conflict, and nothing is written.
   */
  save(logId: number, baseVersion: number | null, v: NewLabelVersion): LabelVersionInfo {
    return writeTransaction(this.db, () => {
      const status = this.stmts.logStatus.get(logId);
      if (status === undefined) throw new ApiError('not_found', `no drive log ${logId}`);
      if (status !== 'ready') throw new ApiError('bad_input', `drive log ${logId} is still being written`);
      const layout = this.rayLayout(logId);
      const n = layout.rays;
      for (const [name, a] of [['classes', v.rayClass], ['objects', v.rayObject], ['hits', v.hit], ...(v.confidence ? [['confidence', v.confidence] as const] : [])] as const) {
        if (a.length !== n) throw new ApiError('bad_input', `labels of drive log ${logId}: ${a.length} ${name} for its ${n} rays`);
      }
      const latest = this.stmts.latest.get(logId);
      if ((latest?.version ?? null) !== baseVersion) {
        throw new ApiError('conflict', `labels of drive log ${logId}: version ${latest?.version} was saved after version ${baseVersion ?? 'none'} this edit started from; reload to see it`);
      }
      const prev = latest ? this.read(logId, latest.version) : null;
      const counts = new Map<number, number>();
      const objects = new Set<number>();
      let points = 0, labelled = 0, changed = 0;
      for (let i = 0; i < n; i++) {
        if (prev && (prev.rayClass[i] !== v.rayClass[i] || prev.rayObject[i] !== v.rayObject[i])) changed++;
        if (!v.hit[i]) continue;
        points++;
        const c = v.rayClass[i]!;
        if (c !== 0) {
          labelled++;
          counts.set(c, (counts.get(c) ?? 0) + 1);
        }
        if (v.rayObject[i] !== 0) objects.add(v.rayObject[i]!);
      }
      const version = (latest?.version ?? 0) + 1;
      const countList = [...counts].sort((a, b) => a[0] - b[0]).map(([c, k]) => ({ class: c, points: k }));
      this.stmts.insert.run(
        logId, version, v.source, v.author, v.note, points, labelled, JSON.stringify(countList), prev ? changed : null, objects.size,
        deflate(v.rayClass), deflate(v.rayObject), v.confidence ? deflate(v.confidence) : null, JSON.stringify(v.entries),
      );
      let offset = 0;
      for (const c of layout.chunks) {
        this.stmts.setChunkLabels.run(toBlob(v.rayClass.subarray(offset, offset + c.rays)), toBlob(v.rayObject.subarray(offset, offset + c.rays)), logId, c.seq);
        offset += c.rays;
      }
      return toInfo(this.stmts.latest.get(logId)!);
    });
  }
}
