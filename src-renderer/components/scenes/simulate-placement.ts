/**
 * Where the simulated sensor sits, in the Simulate form: the profile's own mount, a mount typed as
 * x,y,z,roll,pitch,yaw (metres, degrees), or an extrinsic file picked beside it (vehicle ← sensor,
 * optionally inverted; docs/drive-logs.md, *Mounts and extrinsics*). Both are checked here with the
 * host's own parser (src-common/extrinsic.ts), so the footer names the bad number or the file's
 * line before the request goes.
 */
import type { Request } from '../../../src-main/api/contract';
import { ExtrinsicError, parseExtrinsic, parseMount } from '../../../src-common/extrinsic';
import type { Checked } from '../../form-check';

export type PlacementKind = 'profile' | 'mount' | 'extrinsic';

export interface PlacementForm {
  placement: PlacementKind;
  /** "x,y,z,roll,pitch,yaw". */
  mountText: string;
  extrinsic: { name: string; text: string } | null;
  extrinsicInverse: boolean;
}

export const defaultPlacement = (): PlacementForm => ({ placement: 'profile', mountText: '0,0,1.8,0,0,0', extrinsic: null, extrinsicInverse: false });

type PlacementFields = Pick<Request<'simulate.start'>, 'mount' | 'extrinsic' | 'extrinsicInverse'>;

/** The request's mount fields, or why they cannot be sent. */
export function placementFields(f: PlacementForm): Checked<PlacementFields> {
  try {
    if (f.placement === 'mount') {
      parseMount(f.mountText, 'Mount');
      return { ok: true, value: { mount: f.mountText.split(',').map(Number) as NonNullable<PlacementFields['mount']> } };
    }
    if (f.placement === 'extrinsic') {
      if (!f.extrinsic) return { ok: false, reason: 'Choose an extrinsic file' };
      parseExtrinsic(f.extrinsic.text, f.extrinsic.name, f.extrinsicInverse);
      return { ok: true, value: { extrinsic: f.extrinsic, ...(f.extrinsicInverse ? { extrinsicInverse: true } : {}) } };
    }
    return { ok: true, value: {} };
  } catch (e) {
    if (e instanceof ExtrinsicError) return { ok: false, reason: e.message };
    throw e;
  }
}
