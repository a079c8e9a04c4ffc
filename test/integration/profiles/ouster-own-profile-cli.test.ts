/**
 * The Ouster frame convention end to end, as a user runs it: one scan of the OS1-128 lb_n3
 * capture imported with its metadata JSON, the profile made from that same JSON, the capture's
 * own scan simulated with it (the neighbour simulator replaying the log, on the log's poses) and
 * evaluated against it. With the profile in the lidar frame (180° from the importer's rays) this
 * paired 0 of 129,024 rays; in the one sensor frame, nearly every ray pairs.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cliTempHome, runCliOk } from '../../helpers/cli';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';

const tmp = cliTempHome('thicket-ouster-own-');
const { env } = tmp;

describe.skipIf(!HAS_SHARED_DATA)('an Ouster capture simulated with the profile of its own JSON', () => {
  it('pairs ≥ 95 % of the scan’s rays, F1 ≥ 0.99', () => {
    const project = join(tmp.dir, 'ouster.thicket');
    const json = dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10.json');
    runCliOk(['project', 'create', '--project', project, '--json'], env);
    const log = runCliOk(['import', dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap'), '--project', project, '--calibration', json, '--scans', '2:2', '--json'], env).json as { log: number; hits: number; misses: number };
    expect(log.hits + log.misses).toBe(128 * 1024);
    runCliOk(['profile', 'import', json, '--project', project, '--id', 'lb-os1-128', '--json'], env);
    const run = runCliOk(['simulate', '--project', project, '--neighbour-log', String(log.log), '--profile', 'lb-os1-128', '--poses-from', String(log.log), '--json'], env).json as { run: number; rays: number };
    const ev = runCliOk(['evaluate', '--project', project, '--real', String(log.log), '--sim', String(run.run), '--json'], env).json as { pairedRays: number; f1: number };
    console.log(`[ouster own profile] ${ev.pairedRays} of ${log.hits + log.misses} real rays paired (${run.rays} simulated), F1 ${ev.f1.toFixed(4)}`);
    expect(ev.pairedRays).toBeGreaterThan(0.95 * 128 * 1024);
    expect(ev.f1).toBeGreaterThan(0.99);
  });
});
