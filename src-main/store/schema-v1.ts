/**
 * Migration 1: the initial schema.
 *
 * Conventions (keep them in later migrations):
 * - Timestamps are ISO-8601 UTC text with milliseconds, like `Date.prototype.toISOString`.
 * - JSON columns carry a `json_valid` CHECK so a bad write fails at the statement.
 * - Rows that belong to one parent (chunks, arrays, segments) are deleted with it
 *   (ON DELETE CASCADE); references between independent entities (a model's source log,
 *   a run's scene) become NULL instead, so deleting a log does not delete a fitted model.
 * - Closed enums (job state, import status) are CHECKed. Open-ended kinds (log format,
 *   model kind, simulation mode) are not: SQLite can only change a CHECK by rebuilding the
 *   table, and those lists grow; the TypeScript layer validates them.
 * - Every foreign-key column has an index so that deleting a parent does not scan children.
 * - Bulk arrays are BLOBs; big single arrays go to the `*_arrays` tables in chunks (see
 *   array-store.ts), packets to `log_chunks` / `run_chunks` (see chunk-table.ts).
 */

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

/** Columns of one chunk of packets; shared by recorded logs and simulated runs. */
/** The totals a drive log and a run both keep (cloud-totals.ts reads them). */
const TOTALS_COLUMNS_DDL = `  packets    INTEGER NOT NULL DEFAULT 0,
  points     INTEGER NOT NULL DEFAULT 0,
  hits       INTEGER NOT NULL DEFAULT 0,
  misses     INTEGER NOT NULL DEFAULT 0,
  duration_s REAL NOT NULL DEFAULT 0,
  bounds     TEXT CHECK (bounds IS NULL OR json_valid(bounds)),`;

const CHUNK_COLUMNS = `
  seq           INTEGER NOT NULL CHECK (seq >= 0),
  packet_start  INTEGER NOT NULL CHECK (packet_start >= 0),
  packet_count  INTEGER NOT NULL CHECK (packet_count >= 0),
  ray_count     INTEGER NOT NULL CHECK (ray_count >= 0),
  packet_time   BLOB NOT NULL,   -- f64 × packet_count
  packet_pose   BLOB NOT NULL,   -- f64 × 7 × packet_count
  ray_start     BLOB NOT NULL,   -- u32 × (packet_count + 1)
  ray_dir       BLOB NOT NULL,   -- f32 × 3 × ray_count
  ray_range     BLOB NOT NULL,   -- f32 × ray_count, NaN = miss
  ray_intensity BLOB NOT NULL,   -- f32 × ray_count
  ray_time      BLOB NOT NULL,   -- f32 × ray_count
  ray_ring      BLOB NOT NULL,   -- u16 × ray_count
  ray_return    BLOB NOT NULL,   -- u8 × ray_count: 0 first/only, 1 second return
  ray_object    BLOB NOT NULL,   -- u32 × ray_count: ground-truth object id, 0 = none
  ray_class     BLOB NOT NULL    -- u8 × ray_count: ground-truth class, 0 = unknown
`;

/** A chunked typed-array table owned by `owner` (see array-store.ts). */
function arrayTable(table: string, owner: string): string {
  return `
CREATE TABLE ${table} (
  owner_id INTEGER NOT NULL REFERENCES ${owner}(id) ON DELETE CASCADE,
  name     TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  seq      INTEGER NOT NULL CHECK (seq >= 0),
  dtype    TEXT NOT NULL CHECK (dtype IN ('f32','f64','i8','u8','i16','u16','i32','u32')),
  data     BLOB NOT NULL,
  PRIMARY KEY (owner_id, name, seq)
);`;
}

export const SCHEMA_V1 = `
CREATE TABLE sensor_profiles (
  id         TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128),
  name       TEXT NOT NULL,
  builtin    INTEGER NOT NULL DEFAULT 0 CHECK (builtin IN (0, 1)),
  json       TEXT NOT NULL CHECK (json_valid(json)),
  created_at TEXT NOT NULL DEFAULT ${NOW}
);

CREATE TABLE jobs (
  id          INTEGER PRIMARY KEY,
  kind        TEXT NOT NULL,
  state       TEXT NOT NULL DEFAULT 'queued'
              CHECK (state IN ('queued','running','done','failed','cancelled','interrupted')),
  progress    REAL NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
  message     TEXT NOT NULL DEFAULT '',
  error       TEXT,
  params      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  result      TEXT CHECK (result IS NULL OR json_valid(result)),
  created_at  TEXT NOT NULL DEFAULT ${NOW},
  started_at  TEXT,
  finished_at TEXT,
  -- 'hostname pid' of the host process running the job: recovery interrupts only jobs whose
  -- owner is gone, so opening a project from a second host never kills the first one's work.
  owner       TEXT
);
CREATE INDEX jobs_state ON jobs(state);

CREATE TABLE drive_logs (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  format      TEXT CHECK (format IS NOT NULL OR status = 'importing'), -- may be detected mid-import
  source_path TEXT,
  profile_id  TEXT REFERENCES sensor_profiles(id) ON DELETE SET NULL,
  mount_pose  TEXT CHECK (mount_pose IS NULL OR json_valid(mount_pose)),
  status      TEXT NOT NULL DEFAULT 'importing' CHECK (status IN ('importing','ready')),
${TOTALS_COLUMNS_DDL}
  job_id      INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
  created_at  TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX drive_logs_status ON drive_logs(status);
CREATE INDEX drive_logs_profile ON drive_logs(profile_id);
CREATE INDEX drive_logs_job ON drive_logs(job_id);

CREATE TABLE log_chunks (
  log_id INTEGER NOT NULL REFERENCES drive_logs(id) ON DELETE CASCADE,${CHUNK_COLUMNS}  ,
  PRIMARY KEY (log_id, seq)
);
${arrayTable('log_arrays', 'drive_logs')}

-- A labelled cluster of a log's points (class label, oriented box, member rays in log_arrays).
CREATE TABLE segments (
  id         INTEGER PRIMARY KEY,
  log_id     INTEGER NOT NULL REFERENCES drive_logs(id) ON DELETE CASCADE,
  label      TEXT,
  box        TEXT CHECK (box IS NULL OR json_valid(box)),
  info       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(info)),
  created_at TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX segments_log ON segments(log_id);

-- A list of {class, pose, box}; from a labelled log (log_id) or authored (log_id NULL).
CREATE TABLE annotations (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  log_id     INTEGER REFERENCES drive_logs(id) ON DELETE CASCADE,
  entries    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(entries)),
  created_at TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX annotations_log ON annotations(log_id);

CREATE TABLE models (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL,
  kind          TEXT NOT NULL,
  source_log_id INTEGER REFERENCES drive_logs(id) ON DELETE SET NULL,
  params        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  report        TEXT CHECK (report IS NULL OR json_valid(report)),
  job_id        INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
  created_at    TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX models_source_log ON models(source_log_id);
CREATE INDEX models_job ON models(job_id);
${arrayTable('model_arrays', 'models')}

CREATE TABLE primitives (
  id            INTEGER PRIMARY KEY,
  class         TEXT NOT NULL,
  extents       TEXT NOT NULL CHECK (json_valid(extents)),
  model_id      INTEGER REFERENCES models(id) ON DELETE SET NULL,
  source_log_id INTEGER REFERENCES drive_logs(id) ON DELETE SET NULL,
  source        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(source)),
  created_at    TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX primitives_class ON primitives(class);
CREATE INDEX primitives_model ON primitives(model_id);
CREATE INDEX primitives_source_log ON primitives(source_log_id);
${arrayTable('primitive_arrays', 'primitives')}

CREATE TABLE scenes (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  json       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(json)),
  created_at TEXT NOT NULL DEFAULT ${NOW}
);
${arrayTable('scene_arrays', 'scenes')}

-- A simulation's output has the shape of a drive log; it is written like an import.
CREATE TABLE runs (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  scene_id   INTEGER REFERENCES scenes(id) ON DELETE SET NULL,
  profile_id TEXT REFERENCES sensor_profiles(id) ON DELETE SET NULL,
  mode       TEXT NOT NULL,
  seed       INTEGER NOT NULL DEFAULT 0,
  trajectory TEXT CHECK (trajectory IS NULL OR json_valid(trajectory)),
  params     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  status     TEXT NOT NULL DEFAULT 'simulating' CHECK (status IN ('simulating','ready')),
${TOTALS_COLUMNS_DDL}
  job_id     INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX runs_status ON runs(status);
CREATE INDEX runs_scene ON runs(scene_id);
CREATE INDEX runs_profile ON runs(profile_id);
CREATE INDEX runs_job ON runs(job_id);

CREATE TABLE run_chunks (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,${CHUNK_COLUMNS}  ,
  PRIMARY KEY (run_id, seq)
);

-- Metrics of a run against a real log: meaningless once either is gone, hence CASCADE.
CREATE TABLE evaluations (
  id          INTEGER PRIMARY KEY,
  real_log_id INTEGER NOT NULL REFERENCES drive_logs(id) ON DELETE CASCADE,
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  params      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  metrics     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metrics)),
  job_id      INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
  created_at  TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX evaluations_log ON evaluations(real_log_id);
CREATE INDEX evaluations_run ON evaluations(run_id);
CREATE INDEX evaluations_job ON evaluations(job_id);

CREATE TABLE studies (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  scene_id   INTEGER REFERENCES scenes(id) ON DELETE SET NULL,
  params     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  result     TEXT CHECK (result IS NULL OR json_valid(result)),
  job_id     INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL DEFAULT ${NOW}
);
CREATE INDEX studies_scene ON studies(scene_id);
CREATE INDEX studies_job ON studies(job_id);
`;
