/**
 * ROS 2 bags in the SQLite storage (rosbag2 'sqlite3', *.db3): the messages of a user's bag file
 * as BagMessages, in time order, for the .db3 format (formats/ros2/ros2-db3-format.ts).
 *
 * The file is opened read-only (`fileMustExist`, so a wrong path never creates an empty
 * database) and the messages are stepped through one row at a time, so a bag larger than memory
 * streams. Timestamps are read as BigInt: nanoseconds since 1970 do not fit in a double exactly.
 */
import Database from 'better-sqlite3';
import { basename } from 'node:path';
import { DecodeError } from '../formats/decode-error';
import type { DecodedPacket, DecodeContext, LogSourceInfo } from '../formats/log-source';
import type { BagMessage, Ros2PacketOptions } from '../formats/ros2/ros2-packets';
import type { BagDatabase, Db3Topic } from '../formats/ros2/bag-database';
import { bagPackets } from '../formats/ros2/ros2-db3-format';

export type { Db3Topic } from '../formats/ros2/bag-database';

/** Opens a .db3 read-only, turning SQLite's complaints into a DecodeError naming the file. */
function openBag(path: string): Database.Database {
  const name = basename(path);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new DecodeError(name, `cannot open as a ROS 2 bag: ${(e as Error).message}`);
  }
  try {
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
    if (!tables.has('messages') || !tables.has('topics')) {
      throw new DecodeError(name, `not a ROS 2 bag: the SQLite file has no messages/topics tables (it has ${[...tables].join(', ') || 'no tables'})`);
    }
  } catch (e) {
    db.close();
    if (e instanceof DecodeError) throw e;
    throw new DecodeError(name, `not a readable SQLite file: ${(e as Error).message}`);
  }
  return db;
}

/** The bag's topics with their message counts. */
export function db3Topics(path: string): Db3Topic[] {
  const db = openBag(path);
  try {
    const rows = db
      .prepare(
        `SELECT t.name AS name, t.type AS type, t.serialization_format AS fmt, COUNT(m.id) AS n
         FROM topics t LEFT JOIN messages m ON m.topic_id = t.id GROUP BY t.id ORDER BY t.id`,
      )
      .all() as { name: string; type: string; fmt: string; n: number }[];
    return rows.map((r) => ({ name: r.name, type: r.type, serializationFormat: r.fmt, messageCount: r.n }));
  } finally {
    db.close();
  }
}

/**
 * The messages of a .db3 ordered by timestamp (then row id), optionally of some topics only.
 * The database is closed when the iteration ends, is broken off, or throws.
 */
export function* db3Messages(path: string, opts: { topics?: readonly string[] } = {}): Generator<BagMessage, void, void> {
  const name = basename(path);
  const db = openBag(path);
  try {
    const where = opts.topics && opts.topics.length > 0 ? `WHERE t.name IN (${opts.topics.map(() => '?').join(', ')})` : '';
    const args = opts.topics ?? [];
    const total = (db.prepare(`SELECT COUNT(*) AS n FROM messages m JOIN topics t ON m.topic_id = t.id ${where}`).get(...args) as { n: number }).n;
    const stmt = db.prepare(
      `SELECT m.timestamp AS timestamp, m.data AS data, t.name AS topic, t.type AS type, t.serialization_format AS fmt
       FROM messages m JOIN topics t ON m.topic_id = t.id ${where} ORDER BY m.timestamp, m.id`,
    );
    stmt.safeIntegers(true);
    let i = 0;
    for (const row of stmt.iterate(...args) as IterableIterator<{ timestamp: bigint; data: unknown; topic: string; type: string; fmt: string }>) {
      i++;
      if (!(row.data instanceof Uint8Array)) {
        throw new DecodeError(name, `${row.topic} message ${i - 1}: the data column is not a BLOB`);
      }
      // Other serialisations (a converted ROS 1 bag's 'ros1') are not CDR: the codecs cannot read them.
      if (row.fmt !== 'cdr') continue;
      yield { topic: row.topic, type: row.type, timestamp: row.timestamp, data: row.data, progress: total > 0 ? i / total : 1 };
    }
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    // SQLITE_CORRUPT, SQLITE_NOTADB, ... while stepping through rows.
    if (e instanceof Error && (e as { code?: unknown }).code !== undefined) throw new DecodeError(name, `the bag's database is damaged: ${e.message}`);
    throw e;
  } finally {
    db.close();
  }
}

/** A .db3 file as the BagDatabase the format's descriptor reads (ros2/ros2-db3-format.ts). */
export function openDb3Bag(path: string): BagDatabase {
  return { name: basename(path), topics: () => db3Topics(path), messages: (opts) => db3Messages(path, opts) };
}

/** A .db3 bag as DecodedPackets (the descriptor's stream over openDb3Bag). */
export function db3Packets(
  path: string,
  opts: Omit<Ros2PacketOptions, 'name' | 'format'> & { name?: string; ctx?: DecodeContext },
): Generator<DecodedPacket, LogSourceInfo, void> {
  return bagPackets(openDb3Bag(path), opts);
}
