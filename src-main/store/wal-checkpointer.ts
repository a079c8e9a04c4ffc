/**
 * WAL checkpoints off the host thread.
 *
 * In WAL mode SQLite appends every commit to the write-ahead log and, by default, copies the log
 * back into the database file (a checkpoint) inside the commit that grows it past 1,000 pages:
 * a 4 MB copy and two fsyncs, 15–20 ms on the thread that committed. For the host that is the
 * longest stall of a simulation or an import (docs/benchmarks.md, the host bench). So the host's
 * connection turns automatic checkpoints off, and once its log has grown past `thresholdBytes`
 * a thread of its own, with a second connection, runs PASSIVE checkpoints every `periodMs`: a
 * PASSIVE checkpoint takes no lock that blocks the host's readers or writers, copies what it
 * can, and costs next to nothing when the log is already in the file.
 *
 * The thread starts only once the log is large (most projects of a test run never need it), and
 * if it cannot start or fails, the host's connection goes back to SQLite's own checkpoints.
 * Closing waits (bounded) until the thread has closed its connection, so the host's is the last
 * one and SQLite checkpoints the rest and removes the log, as a lone connection does.
 */
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface CheckpointerOptions {
  /** Log size (bytes) at which the thread starts (default 4 MiB, SQLite's own threshold). */
  thresholdBytes?: number;
  /** How often the host looks at the log's size, and the thread checkpoints (ms). */
  periodMs?: number;
}

/** SQLite's default `wal_autocheckpoint` (pages): what the host goes back to without the thread. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/** The longest the host waits, when closing, for the thread to close its connection (ms). */
const CLOSE_WAIT_MS = 5000;

// CommonJS run by the thread (eval: a bundled and an unbundled host start it the same way).
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const done = new Int32Array(workerData.closed);
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: next period */ } };
const timer = setInterval(checkpoint, workerData.periodMs);
checkpoint();
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
  parentPort.close();
});
`;

export class WalCheckpointer {
  private readonly threshold: number;
  private readonly period: number;
  private readonly wal: string;
  private timer: NodeJS.Timeout | null = null;
  private worker: Worker | null = null;
  private closed: Int32Array | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    opts: CheckpointerOptions = {},
  ) {
    this.threshold = opts.thresholdBytes ?? 4 * 1024 * 1024;
    this.period = opts.periodMs ?? 250;
    this.wal = `${file}-wal`;
    db.pragma('wal_autocheckpoint = 0');
    this.timer = setInterval(() => this.watch(), this.period);
    this.timer.unref();
  }

  /** Whether the checkpointing thread is running (for tests and the bench). */
  get threadRunning(): boolean {
    return this.worker !== null;
  }

  private watch(): void {
    if (this.worker) return;
    let size: number;
    try {
      size = statSync(this.wal).size;
    } catch {
      return; // no log yet
    }
    if (size >= this.threshold) this.start();
  }

  private start(): void {
    try {
      const closed = new Int32Array(new SharedArrayBuffer(4));
      const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
      const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { file: this.file, sqlite, periodMs: this.period, closed: closed.buffer } });
      worker.unref();
      worker.on('error', () => this.fallBack());
      this.worker = worker;
      this.closed = closed;
      this.stopWatching();
    } catch {
      this.fallBack();
    }
  }

  /** The thread could not run: SQLite checkpoints on the host's commits again. */
  private fallBack(): void {
    this.worker = null;
    this.closed = null;
    this.stopWatching();
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  }

  private stopWatching(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops the thread and waits until its connection is closed; call before closing the host's. */
  close(): void {
    this.stopWatching();
    const { worker, closed } = this;
    this.worker = null;
    this.closed = null;
    if (!worker || !closed) return;
    worker.postMessage('close');
    // The thread is idle between checkpoints, so this returns within one checkpoint's time.
    Atomics.wait(closed, 0, 0, CLOSE_WAIT_MS);
    if (Atomics.load(closed, 0) === 0) void worker.terminate();
  }
}
