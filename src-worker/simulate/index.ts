export { simulatePacket, simulatePackets, Simulator } from './simulate';
export { ChunkBuilder } from '../formats/chunk-builder';
export { beamStencil, equalAreaStencilScale, spotHalfWidths, STENCIL_SIZE } from './stencil';
export { processPulse, measureRange } from './returns';
export type { PacketRays, PacketRaySource, RangeSampler, SimulationContext, SimulationMode, SimulationOptions, SimulationStats } from './types';
export { newSimulationStats } from './types';
