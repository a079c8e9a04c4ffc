/**
 * `--mount x,y,z,roll,pitch,yaw` and `--extrinsic FILE [--extrinsic-inverse]` (import and
 * simulate) as request fields. The file is read and checked by the host (mount-request.ts), so
 * the CLI, the API and the pages refuse the same files with the same message.
 */
import { resolve } from 'node:path';
import { ExtrinsicError, parseMount } from '../../src-common/extrinsic';
import { CliError } from './cli-error';

export interface MountFields {
  mount?: [number, number, number, number, number, number];
  extrinsicPath?: string;
  extrinsicInverse?: boolean;
}

export function mountFlags(v: { mount?: string; extrinsic?: string; 'extrinsic-inverse'?: boolean }): MountFields {
  if (v.mount !== undefined && v.extrinsic !== undefined) throw new CliError('give either --mount x,y,z,roll,pitch,yaw or --extrinsic FILE, not both', 2);
  if (v['extrinsic-inverse'] && v.extrinsic === undefined) throw new CliError('--extrinsic-inverse applies to --extrinsic FILE', 2);
  if (v.mount !== undefined) {
    try {
      parseMount(v.mount); // the flag's own message (which number is wrong) before the request
    } catch (e) {
      if (e instanceof ExtrinsicError) throw new CliError(e.message, 2);
      throw e;
    }
    return { mount: v.mount.split(',').map(Number) as MountFields['mount'] };
  }
  if (v.extrinsic !== undefined) return { extrinsicPath: resolve(v.extrinsic), ...(v['extrinsic-inverse'] ? { extrinsicInverse: true } : {}) };
  return {};
}
