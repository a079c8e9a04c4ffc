/**
 * The simulators and scene kinds Thicket offers (docs/methods.md §1–§4): one list that the API's
 * schemas, the engine and the pages share.
 */

/** The engine's modes over a scene or a fitted model. */
export const SCENE_SIMULATION_MODES = ['hybrid', 'voxel', 'physics', 'mesh'] as const;
export type SceneSimulationMode = (typeof SCENE_SIMULATION_MODES)[number];

/**
 * Every simulator a run can come from: a scene mode, or `neighbour` — the baseline of
 * Tallavajhula's thesis (2018, §4.3.2) that replays a training drive log instead of simulating a
 * scene.
 */
export const SIMULATION_MODES = [...SCENE_SIMULATION_MODES, 'neighbour'] as const;
export type SimulationMode = (typeof SIMULATION_MODES)[number];

/** How a hybrid-mode hit on a Gaussian picks its range (docs/methods.md §1). */
export const RANGE_SAMPLERS = ['along-ray', 'gaussian-point'] as const;
export type RangeSampler = (typeof RANGE_SAMPLERS)[number];

/** The procedural scenes `scene generate` builds. */
export const SCENE_KINDS = ['offroad', 'hybrid-strip', 'cylinder-stand', 'rod-bench'] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];

/** The modes a composed scene is built for (which elements it holds). */
export type ComposeMode = SceneSimulationMode;

/** Closed loop: the vehicle drives on what its sensor saw; open loop: it follows a fixed path. */
export const STUDY_LOOPS = ['closed', 'open'] as const;
export type StudyLoop = (typeof STUDY_LOOPS)[number];
/** The simulators a sensor study may run. */
export const STUDY_SIMULATIONS = ['physics', 'hybrid'] as const;
export type StudySimulation = (typeof STUDY_SIMULATIONS)[number];
