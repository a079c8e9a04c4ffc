/**
 * A ROS 2 bag in SQLite storage (.db3) as the decoders see it. Opening one needs better-sqlite3,
 * which only the task layer may load (tasks/ros2-db3-file.ts implements this), so the .db3
 * format's descriptor receives it rather than opening the file itself.
 */
import type { BagMessage } from './ros2-packets';

export interface Db3Topic {
  name: string;
  type: string;
  serializationFormat: string;
  messageCount: number;
}

export interface BagDatabase {
  /** The bag's file name, for errors. */
  readonly name: string;
  /** The bag's topics with their message counts. */
  topics(): Db3Topic[];
  /** The messages in time order, of some topics only; the database closes when iteration ends. */
  messages(opts: { topics?: readonly string[] }): Generator<BagMessage, void, void>;
}
