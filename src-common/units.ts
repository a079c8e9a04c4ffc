/**
 * Units: Thicket computes in metres, radians and seconds; degrees, milliseconds and milliradians
 * appear only in files and on the pages (docs/design.md, "Shared vocabulary").
 */

/** Radians per degree. */
export const DEG = Math.PI / 180;
/** Degrees per radian. */
export const RAD_TO_DEG = 180 / Math.PI;

export const degToRad = (deg: number): number => deg * DEG;
export const radToDeg = (rad: number): number => rad * RAD_TO_DEG;
