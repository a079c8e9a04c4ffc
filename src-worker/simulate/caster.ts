/** What every mode implements: simulate one pulse and hand its returns to the emitter. */
import type { RandomStream } from '../random/stream';
import type { Firing, ReturnEmitter } from './firing';

export interface ModeCaster {
  fire(f: Firing, rng: RandomStream, out: ReturnEmitter): void;
}
