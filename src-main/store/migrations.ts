/**
 * Versioned migrations, tracked by `PRAGMA user_version`.
 *
 * Migration N takes a file at version N-1 to version N inside one transaction that also
 * sets user_version, so a crash mid-migration leaves the file at N-1, never in between.
 * Append new migrations at the end; never edit one that has shipped.
 */
import type Database from 'better-sqlite3';
import { SCHEMA_V1 } from './schema-v1';

/** `PRAGMA application_id` of every Thicket project: 'THKT'. Tells our files from other SQLite files. */
export const THICKET_APPLICATION_ID = 0x54484b54;

export interface Migration {
  version: number;
  name: string;
  /**
   * Set when the migration rebuilds a table (SQLite's 12-step ALTER): foreign keys are
   * switched off around it (the pragma is a no-op inside a transaction) and checked with
   * `PRAGMA foreign_key_check` before commit.
   */
  rebuildsTables?: boolean;
  up(db: Database.Database): void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    up(db) {
      db.exec(SCHEMA_V1);
      db.pragma(`application_id = ${THICKET_APPLICATION_ID}`);
    },
  },
  {
    version: 2,
    name: 'drive log metadata and packed capture chunks',
    up(db) {
      // What the importer learnt about a log (sensor model, return mode, GPS fixes, rebuilt
      // misses, poses file): shown with the log, never needed to read its packets.
      db.exec(`ALTER TABLE drive_logs ADD COLUMN info TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(info))`);
      // Captures keep their raw packets (formats/packed-rays.ts): the codec and payloads per
      // chunk, and per log the profile that decodes them (SensorProfile JSON).
      db.exec(`ALTER TABLE drive_logs ADD COLUMN decode_profile TEXT CHECK (decode_profile IS NULL OR json_valid(decode_profile))`);
      db.exec(`ALTER TABLE log_chunks ADD COLUMN packed_codec TEXT`);
      db.exec(`ALTER TABLE log_chunks ADD COLUMN packed BLOB`);
    },
  },
  {
    version: 3,
    name: 'sensor study runs',
    up(db) {
      // One row per sensor-and-mount run of a study (its metrics), and that run's history as
      // whole typed arrays (a few MB each: frames, poses, plans, cost rises, decimated points,
      // the final costmap's PNG). Re-running a study replaces its runs in one transaction.
      db.exec(`
        CREATE TABLE study_runs (
          id         INTEGER PRIMARY KEY,
          study_id   INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
          seq        INTEGER NOT NULL,
          profile_id TEXT NOT NULL,
          mount      TEXT NOT NULL CHECK (json_valid(mount)),
          metrics    TEXT NOT NULL CHECK (json_valid(metrics)),
          UNIQUE (study_id, seq)
        );
        CREATE TABLE study_run_arrays (
          run_id INTEGER NOT NULL REFERENCES study_runs(id) ON DELETE CASCADE,
          name   TEXT NOT NULL,
          dtype  TEXT NOT NULL,
          data   BLOB NOT NULL,
          PRIMARY KEY (run_id, name)
        );
      `);
    },
  },
  {
    version: 4,
    name: 'evaluation per-packet arrays',
    up(db) {
      // An evaluation's per-packet series (packet indices, time, distance along the drive,
      // error, hit counts) as whole typed arrays: ~40 bytes a packet, 4 MB for 100,000 packets.
      db.exec(`
        CREATE TABLE evaluation_arrays (
          evaluation_id INTEGER NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
          name          TEXT NOT NULL,
          dtype         TEXT NOT NULL,
          data          BLOB NOT NULL,
          PRIMARY KEY (evaluation_id, name)
        );
      `);
    },
  },
  {
    version: 5,
    name: 'scenes written a piece at a time',
    up(db) {
      // A large scene (millions of triangles, hundreds of MB) is written one array chunk per turn
      // of the host's event loop under a row still 'writing', which readers do not see; one last
      // step makes it 'ready'. A host that stops in between leaves a 'writing' row that the next
      // open discards (ProjectStore.recover), its arrays with it — unless the job writing it is
      // still live, on another host that has the project open.
      db.exec(`ALTER TABLE scenes ADD COLUMN status TEXT NOT NULL DEFAULT 'ready' CHECK (status IN ('writing','ready'))`);
      db.exec(`ALTER TABLE scenes ADD COLUMN job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL`);
    },
  },
  {
    version: 6,
    name: 'models and primitives written a piece at a time',
    up(db) {
      // As scenes (migration 5): a fitted model's arrays (tens of MB for a long drive) and an
      // extraction's primitives (their ellipsoids, voxels and raw points) are written a chunk per
      // turn of the host's event loop under rows still 'writing'; recover() drops those their job
      // left behind.
      db.exec(`ALTER TABLE models ADD COLUMN status TEXT NOT NULL DEFAULT 'ready' CHECK (status IN ('writing','ready'))`);
      db.exec(`ALTER TABLE primitives ADD COLUMN status TEXT NOT NULL DEFAULT 'ready' CHECK (status IN ('writing','ready'))`);
      db.exec(`ALTER TABLE primitives ADD COLUMN job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL`);
    },
  },
  {
    version: 7,
    name: 'what a drive log source file held',
    up(db) {
      // What an imported file held that the packets do not and an export restores (a LAS
      // file's scale, offsets, coordinate-system records, clock and per-hit class codes:
      // docs/drive-logs.md "LAS export"): `meta` JSON, `classes` one byte per hit in log order.
      db.exec(`
        CREATE TABLE log_sources (
          log_id  INTEGER PRIMARY KEY REFERENCES drive_logs(id) ON DELETE CASCADE,
          format  TEXT NOT NULL,
          meta    TEXT NOT NULL CHECK (json_valid(meta)),
          classes BLOB
        );
      `);
    },
  },
  {
    version: 8,
    name: 'label versions and the class list',
    up(db) {
      // A drive log's labels as saved versions (docs/labeling.md): per return in log order a class
      // (u8) and an object id (u32), and for automatic proposals a confidence (f32), each array
      // deflated. The newest version is also written beside each of the log's chunks
      // (label_class, label_object: per ray of the chunk), and reading a chunk puts them in place
      // of the classes it was imported with, so fitting, extraction and evaluation read the
      // labels; a packed chunk's go to its decoder. The project's class list overrides the
      // built-in one where it has rows.
      db.exec(`
        CREATE TABLE label_versions (
          id         INTEGER PRIMARY KEY,
          log_id     INTEGER NOT NULL REFERENCES drive_logs(id) ON DELETE CASCADE,
          version    INTEGER NOT NULL CHECK (version >= 1),
          source     TEXT NOT NULL CHECK (source IN ('edit','import','auto')),
          author     TEXT NOT NULL DEFAULT '',
          note       TEXT NOT NULL DEFAULT '',
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
          points     INTEGER NOT NULL,
          labelled   INTEGER NOT NULL,
          counts     TEXT NOT NULL CHECK (json_valid(counts)),
          changed    INTEGER,
          objects    INTEGER NOT NULL,
          classes    BLOB NOT NULL,
          instances  BLOB NOT NULL,
          confidence BLOB,
          entries    TEXT NOT NULL CHECK (json_valid(entries)),
          UNIQUE (log_id, version)
        );
        ALTER TABLE log_chunks ADD COLUMN label_class BLOB;
        ALTER TABLE log_chunks ADD COLUMN label_object BLOB;
        CREATE TABLE label_classes (
          id    INTEGER PRIMARY KEY CHECK (id BETWEEN 0 AND 255),
          name  TEXT NOT NULL,
          color TEXT NOT NULL,
          asprs INTEGER NOT NULL CHECK (asprs BETWEEN 0 AND 255)
        );
      `);
    },
  },
  {
    version: 9,
    name: 'application-level risks',
    up(db) {
      db.exec(`
        CREATE TABLE risks (
          id          INTEGER PRIMARY KEY,
          real_log_id INTEGER NOT NULL REFERENCES drive_logs(id) ON DELETE CASCADE,
          run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
          application TEXT NOT NULL,
          params      TEXT NOT NULL CHECK (json_valid(params)),
          result      TEXT NOT NULL CHECK (json_valid(result)),
          seconds     REAL NOT NULL,
          job_id      INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
          created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
        );
        CREATE INDEX risks_log ON risks(real_log_id);
        CREATE INDEX risks_run ON risks(run_id);
        CREATE INDEX risks_job ON risks(job_id);
      `);
    },
  },
  {
    version: 10,
    name: 'learned sensor noise models',
    up(db) {
      // A sensor noise model learnt from repeated static scans (docs/methods.md §8): what learning
      // reported, and the per-beam tables a simulation draws from (JSON). It outlives its log.
      db.exec(`
        CREATE TABLE noise_models (
          id         INTEGER PRIMARY KEY,
          name       TEXT NOT NULL,
          log_id     INTEGER REFERENCES drive_logs(id) ON DELETE SET NULL,
          method     TEXT NOT NULL CHECK (method IN ('p-reg','np-reg')),
          summary    TEXT NOT NULL CHECK (json_valid(summary)),
          tables     TEXT NOT NULL CHECK (json_valid(tables)),
          job_id     INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
        );
      `);
    },
  },
];

MIGRATIONS.forEach((m, i) => {
  if (m.version !== i + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
});

/** The schema version this build writes and the newest it can open. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies every pending migration; returns the versions before and after. */
export function migrate(db: Database.Database): { from: number; to: number } {
  const from = schemaVersion(db);
  if (from > SCHEMA_VERSION) {
    throw new Error(`schema version ${from} is newer than this build's ${SCHEMA_VERSION}`);
  }
  for (const m of MIGRATIONS.slice(from)) {
    if (m.rebuildsTables) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        // Re-read under the write lock: another process may have migrated meanwhile.
        if (schemaVersion(db) >= m.version) return;
        m.up(db);
        if (m.rebuildsTables) {
          const broken = db.pragma('foreign_key_check') as unknown[];
          if (broken.length > 0) throw new Error(`migration ${m.version} (${m.name}) broke ${broken.length} foreign keys`);
        }
        // user_version lives in the file header and is covered by the transaction.
        db.pragma(`user_version = ${m.version}`);
      }).immediate();
    } finally {
      if (m.rebuildsTables) db.pragma('foreign_keys = ON');
    }
  }
  return { from, to: SCHEMA_VERSION };
}
