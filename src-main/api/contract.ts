/**
 * ThicketApi: the one contract between the renderer (or any client) and the host.
 *
 * Every method has a runtime schema for its request (validated at the boundary by
 * `dispatch`, so a bad request changes nothing) and a TypeScript type for its response.
 * The same contract is bound twice: Electron IPC (src-main/electron) and a WebSocket on
 * 127.0.0.1 (src-main/host). This folder is environment-neutral (zod only): the renderer
 * imports it, so nothing here may import Node, Electron or another src-main folder.
 */
import { z } from 'zod';
import { APPLICATIONS, type RiskInfo } from '../../src-common/application-risk';
import { EXPORT_FORMATS, LOG_FORMATS, type DriveLogFormat } from '../../src-common/formats';
import { RANGE_SAMPLERS, SCENE_KINDS, SCENE_SIMULATION_MODES, SIMULATION_MODES, STUDY_LOOPS, STUDY_SIMULATIONS, type SimulationMode, type StudyLoop } from '../../src-common/modes';
import type { ProfileFile, ProfileKind, ProfilePattern, SensorProfile } from '../../src-common/sensor-profile';
import type { EvaluationMetrics } from '../../src-common/metrics';
import { regionProblem } from '../../src-common/evaluation-region';
import type { StudyLiveFrame, StudyMetrics } from '../../src-common/study-results';
import type { SensorPreview } from '../../src-common/sensor-preview';
export type { SensorPreview };
import type { RealExperiment } from '../../src-common/experiment-results';
import type { FormatCatalogue } from '../../src-common/format-info';
import { NOISE_METHODS, type NoiseModelInfo } from '../../src-common/noise-model';
import { MAX_TERRAIN_SIDE_M, type TerrainGrid } from '../../src-common/scene-authoring';

// ---------- shared field schemas ----------

export const Id = z.number().int().positive();

/** A project is one SQLite file; the extension keeps users from opening arbitrary files as projects. */
export const ProjectPath = z
  .string()
  .min(1, 'a project path is required')
  .max(4096)
  .refine((p) => p.endsWith('.thicket'), { message: 'a project file name ends in .thicket' })
  .refine((p) => !p.includes('\0'), { message: 'a path may not contain NUL' });

export const LogFormatSchema = z.enum(LOG_FORMATS);

/** Options every log import takes. */
const importOptions = {
  /** The sensor profile that decodes the packets (pcap) or rebuilds the misses (hit-only formats). */
  profileId: z.string().min(1).max(128).optional(),
  /** Rebuild the misses of a hit-only format from the profile (default: when a profile is given). */
  rebuildMisses: z.boolean().optional(),
  /** The sensor model of the calibration, overriding detection ('vlp32c', 'os1-64-2048', …; docs/methods.md §5). */
  sensorModel: z.string().min(1).max(32).optional(),
  /** Only scans from…to (numbered from 1 in capture order, inclusive; to null = the last). */
  scans: z.object({ from: z.number().int().min(1), to: z.number().int().min(1).nullable() }).strict()
    .refine((r) => r.to === null || r.to >= r.from, { message: 'scans: need from ≤ to' }).optional(),
};
const TextFile = z.object({ name: z.string().min(1).max(255), text: z.string().max(64 << 20) }).strict();

/**
 * Where the sensor sits on the vehicle (vehicle ← sensor; docs/drive-logs.md, *Mounts and
 * extrinsics*), for an import (packet poses = vehicle pose · mount) and a simulation (the profile's
 * mount replaced). At most one of `mount` and an extrinsic; the service checks the file.
 */
const mountOptions = {
  /** [x, y, z (m), roll, pitch, yaw (degrees; R = Rz·Ry·Rx)]. */
  mount: z.tuple([z.number().finite(), z.number().finite(), z.number().finite(), z.number().finite(), z.number().finite(), z.number().finite()]).optional(),
  /** An extrinsic file on the host (a 4×4 matrix, a 3×4 / KITTI row, a ROS-style q/t YAML) mapping sensor points into the vehicle frame, */
  extrinsicPath: z.string().min(1).max(4096).optional(),
  /** or its text (picked in a browser). */
  extrinsic: z.object({ name: z.string().min(1).max(255), text: z.string().max(64 * 1024) }).strict().optional(),
  /** The file maps vehicle points into the sensor frame instead: it is inverted. */
  extrinsicInverse: z.boolean().optional(),
};

export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Label file formats: SemanticKITTI `.label` (u32 per point: class low 16 bits, instance high 16), KITTI object `.txt` boxes, Thicket's JSON. */
export const LABEL_FORMATS = ['semantic-kitti', 'kitti-object', 'thicket-json'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];

/** A class of the project's label list. */
export interface LabelClass {
  /** 0–255: the id rays carry (ray_class); 0 = unlabelled. */
  id: number;
  name: string;
  /** '#rrggbb'. */
  color: string;
  /** ASPRS (LAS) classification code it exports as. */
  asprs: number;
}
const LabelClassSchema = z
  .object({
    id: z.number().int().min(0).max(255),
    name: z.string().trim().min(1).max(60),
    color: z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'a colour is #rrggbb' }),
    asprs: z.number().int().min(0).max(255),
  })
  .strict();

export const COLOR_MODES = ['height', 'intensity', 'class', 'time', 'ring'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

export const SimulationModeSchema = z.enum(SIMULATION_MODES);
export const SceneKindSchema = z.enum(SCENE_KINDS);

const Vec3 = z.tuple([z.number().finite(), z.number().finite(), z.number().finite()]);
const Seed = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** An area of the x-y plane (m) a scene editor's terrain covers. */
const TerrainExtent = z
  .object({ x0: z.number().finite(), y0: z.number().finite(), x1: z.number().finite(), y1: z.number().finite() })
  .strict()
  .refine((e) => e.x1 > e.x0 && e.y1 > e.y0, { error: 'the extent needs x1 > x0 and y1 > y0' })
  .refine((e) => e.x1 - e.x0 <= MAX_TERRAIN_SIDE_M && e.y1 - e.y0 <= MAX_TERRAIN_SIDE_M, { error: `a terrain is at most ${MAX_TERRAIN_SIDE_M} m a side` });

/** The terrain of an authored scene (src-common/scene-authoring.ts TerrainSpec). */
export const TerrainSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('flat'), z: z.number().finite().default(0), extent: TerrainExtent }).strict(),
  z.object({ kind: z.literal('procedural'), seed: Seed.default(1), amplitude: z.number().min(0).max(50).default(1.5), extent: TerrainExtent }).strict(),
  z.object({ kind: z.literal('model'), modelId: z.number().int().positive() }).strict(),
]);

/** One primitive placed by hand: its foot at (x, y, z) — on the ground when z is absent — turned by yaw (rad), scaled. */
export const AuthoredPlacementSchema = z
  .object({
    primitiveId: z.number().int().positive(),
    x: z.number().finite(),
    y: z.number().finite(),
    z: z.number().finite().optional(),
    yaw: z.number().finite().default(0),
    scale: z.number().positive().finite().default(1),
  })
  .strict();

/** Where the vehicle is while the sensor fires (world ← vehicle poses over time). */
export const TrajectorySpec = z.discriminatedUnion('kind', [
  /** Standing still at `position`, heading `headingDeg` (counter-clockwise from +x). */
  z.object({ kind: z.literal('static'), seconds: z.number().positive().max(3600), position: Vec3, headingDeg: z.number().finite().default(0) }).strict(),
  /** Driving a straight line at constant speed. */
  z
    .object({
      kind: z.literal('straight'),
      seconds: z.number().positive().max(3600),
      start: Vec3,
      headingDeg: z.number().finite().default(0),
      speed: z.number().min(0).max(60),
    })
    .strict(),
  /** Along the scene's own trail (generated scenes carry one), at `speed` m/s. */
  z.object({ kind: z.literal('trail'), speed: z.number().positive().max(60).default(2.4), seconds: z.number().positive().max(3600).optional() }).strict(),
  /** The sensor poses of a recorded drive log (re-simulate a real drive). */
  z.object({ kind: z.literal('log'), logId: Id, seconds: z.number().positive().max(3600).optional() }).strict(),
]);
export type TrajectorySpec = z.infer<typeof TrajectorySpec>;

/** A sensor profile id: lowercase letters, digits and dashes ('vlp16', 'lms291-180-05'). */
export const ProfileId = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, { error: 'a profile id is 1 to 64 lowercase letters, digits and dashes, not starting or ending with a dash' });
/** A whole profile in a request, either form (SensorProfile or ProfileFile): the service checks it field by field. */
const ProfileBody = z.record(z.string(), z.unknown());

/**
 * A display cloud of a log or a run: the whole of it, or only packets from ≤ index < to (the
 * playback's current sweep), then optionally with that range's misses as rays.
 */
const CloudRequest = z
  .object({
    id: Id,
    budget: z.number().int().min(1_000).max(20_000_000).default(2_000_000),
    packets: z
      .object({ from: z.number().int().min(0), to: z.number().int().min(1) })
      .strict()
      .refine((r) => r.to > r.from, { error: 'packets.to must be greater than packets.from' })
      .optional(),
    /** Also the misses (no return) as segments from the sensor along the ray, `missLengthM` long, at most `missBudget`. */
    misses: z.boolean().default(false),
    missBudget: z.number().int().min(100).max(2_000_000).default(100_000),
    missLengthM: z.number().positive().max(1000).default(20),
  })
  .strict();
/** A log's or a run's packet times, sweeps and trajectory (at most `maxPoses` poses) for playback. */
const TimelineRequest = z.object({ id: Id, maxPoses: z.number().int().min(2).max(1_000_000).default(10_000) }).strict();

// ---------- sensor studies (003 §3.5.3, docs/methods.md §7) ----------

const XY = z.tuple([z.number().finite(), z.number().finite()]);

/** Where a sensor sits on the vehicle: height above the ground (m), pitch (positive = tilted down) and yaw (degrees), x forward and y left of the footprint's centre (m). */
export const StudyMount = z
  .object({
    height: z.number().min(0.2).max(10).default(2),
    pitchDeg: z.number().min(-90).max(90).default(0),
    yawDeg: z.number().min(-180).max(180).default(0),
    x: z.number().min(-10).max(10).default(0),
    y: z.number().min(-10).max(10).default(0),
  })
  .strict();
export type StudyMount = z.output<typeof StudyMount>;

/**
 * A sensor study: every sensor (profile + mount) drives the same vehicle from `start` to `goal`
 * in the scene, mapping as it goes (closed loop), or maps a fixed route for `seconds` (open
 * loop). Absent start/goal/grid origin are derived from the scene (its trail, else its bounds).
 */
export const StudyDefinition = z
  .object({
    name: z.string().min(1).max(255).optional(),
    sceneId: Id,
    loop: z.enum(STUDY_LOOPS).default('closed'),
    /** The engine's mode for the scans: physics (beam stencil, mixed pixels: 003's simulator) or hybrid. */
    simulation: z.enum(STUDY_SIMULATIONS).default('physics'),
    /** Time limit (closed loop) or the map's age (open loop), simulated seconds. */
    seconds: z.number().positive().max(3600).default(90),
    seed: Seed.default(1),
    vehicle: z
      .object({
        speed: z.number().positive().max(2).default(2),
        length: z.number().min(0.2).max(20).default(2.5),
        width: z.number().min(0.2).max(20).default(1.5),
        maxYawRateDeg: z.number().positive().max(720).default(60),
        /** Solid objects lower than this are driven over (not obstacles). */
        clearance: z.number().min(0).max(5).default(0.3),
        start: XY.optional(),
        goal: XY.optional(),
        startHeadingDeg: z.number().finite().optional(),
      })
      .strict()
      .prefault({}),
    sensors: z.array(z.object({ profileId: z.string().min(1).max(128), mount: StudyMount.prefault({}) }).strict()).min(1).max(256),
    grid: z
      .object({
        cellM: z.number().min(0.05).max(5).default(0.5),
        width: z.number().int().min(8).max(2000).default(400),
        height: z.number().int().min(8).max(2000).default(400),
        /** Largest negotiable vegetation height (m): a point h above the ground costs min(100 h / hMax, 100). */
        hMax: z.number().positive().max(20).default(1.5),
        /** Cells of this cost or more are lethal (never entered; counted by falseObstacles). */
        lethalCost: z.number().int().min(1).max(100).default(50),
        unknownCost: z.number().min(0).max(99).default(10),
        /** Lower-left corner (world m); default: the grid centred on start and goal. */
        origin: XY.optional(),
      })
      .strict()
      .prefault({}),
    planner: z
      .object({
        costWeight: z.number().min(0).max(100).default(4),
        /** Default: half the vehicle's width + 0.25 m. */
        inflationM: z.number().min(0).max(20).optional(),
        inflationPenalty: z.number().min(1).max(1000).default(10),
        replanPeriodS: z.number().positive().max(60).default(1),
        minReplanIntervalS: z.number().min(0).max(60).default(0.2),
        goalToleranceM: z.number().positive().max(50).default(1.5),
        relevanceM: z.number().min(0).max(1000).default(15),
      })
      .strict()
      .prefault({}),
    /** Points kept per run for display, evenly over its scans. */
    cloudBudget: z.number().int().min(0).max(2_000_000).default(100_000),
  })
  .strict();
export type StudyDefinition = z.output<typeof StudyDefinition>;

/** An evaluation's region (src-common/evaluation-region.ts); its problems are reported by field. */
const EvaluationRegionSchema = z
  .object({
    azimuthDeg: z.tuple([z.number().finite(), z.number().finite()]).optional(),
    excludeAzimuthDeg: z.array(z.tuple([z.number().finite(), z.number().finite()])).max(64).optional(),
    rangeM: z.tuple([z.number().finite(), z.number().finite()]).optional(),
    boxes: z.array(z.object({ center: Vec3, size: Vec3, yawDeg: z.number().finite() }).strict()).max(64).optional(),
    excludeBody: z.object({ size: Vec3, center: Vec3 }).strict().optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    const problem = regionProblem(r);
    if (problem) ctx.addIssue({ code: 'custom', message: `${problem.where}: ${problem.reason}` });
  });

/**
 * Options of an evaluation (docs/methods.md §6; src-worker/evaluate/observation-metrics.ts, which holds
 * the defaults): ray and packet pairing, the point-cloud samples, and the static-scan histograms.
 */
export const EvaluationParams = z
  .object({
    /** Largest angle between paired rays (default 0.2°). */
    directionToleranceDeg: z.number().min(0.01).max(10).optional(),
    /**
     * 'time': rays by (firing time, direction) across packet boundaries; 'index': packet k with
     * packet k; 'rays': ray for ray (checked). Default: 'rays' for a run simulated from this log's
     * rays (`raysFromLogId`), else 'time'.
     */
    packetPairing: z.enum(['time', 'index', 'rays']).optional(),
    /** Largest difference of paired rays' firing times (default 2.5e-4 s). */
    timeToleranceS: z.number().min(0).max(60).optional(),
    /** Seconds added to the run's times (default: the first packets coincide). */
    timeOffsetS: z.number().finite().min(-1e7).max(1e7).optional(),
    /** Point-cloud error samples per side: nearest-neighbour targets (default 10⁶) and queries (default 2·10⁵). */
    targetCap: z.number().int().min(1_000).max(10_000_000).optional(),
    queryCap: z.number().int().min(100).max(10_000_000).optional(),
    /** false: skip the second pass over a cloud above targetCap (the error is then a sample estimate, biased up). */
    exactPointCloud: z.boolean().optional(),
    seed: Seed.optional(),
    /** Both logs count as standing still within these of the real log's first pose (defaults 0.05 m, 0.5°). */
    staticTranslationM: z.number().min(0).max(10).optional(),
    staticRotationDeg: z.number().min(0).max(45).optional(),
    /** Static-scan histogram bins (defaults 0.5°, 0.5°, 0.05 m up to 200 m). */
    azimuthBinDeg: z.number().min(0.01).max(45).optional(),
    elevationBinDeg: z.number().min(0.01).max(45).optional(),
    rangeBinM: z.number().min(0.001).max(10).optional(),
    maxRangeM: z.number().min(1).max(10_000).optional(),
    /** What is scored (src-common/evaluation-region.ts; default everything). */
    region: EvaluationRegionSchema.optional(),
    /** Width of the by-range breakdown's bins (default 10 m). */
    rangeBreakdownBinM: z.number().min(0.1).max(1_000).optional(),
    /** Warn when less than this fraction of a side's rays pair, or of the shorter time span overlaps (default 0.5). */
    minOverlap: z.number().min(0).max(1).optional(),
  })
  .strict();
export type EvaluationParams = z.output<typeof EvaluationParams>;

// ---------- request schemas, one per method ----------

const empty = z.object({}).strict();

export const requestSchemas = {
  'app.info': empty,
  'project.create': z.object({ path: ProjectPath }).strict(),
  'project.open': z.object({ path: ProjectPath }).strict(),
  'project.close': empty,
  /** The open project, or null. */
  'project.current': empty,
  'project.recent': empty,
  /** Rewrites the open project's file without its unused pages (no job may be running). */
  'project.compact': empty,
  'logs.list': empty,
  'logs.get': z.object({ id: Id }).strict(),
  'logs.delete': z.object({ id: Id }).strict(),
  /** A decimated cloud for display: at most `budget` points, evenly strided over the log. */
  'logs.cloud': CloudRequest,
  'logs.timeline': TimelineRequest,
  /** Two new logs from one (a job): scans 1…at−1 and at…, numbered from 1 in capture order; the log stays. */
  'logs.split': z.object({ id: Id, at: z.number().int() }).strict(),
  /** Import a file the user chose on the host machine (Electron dialog or typed path). */
  'logs.importFile': z
    .object({
      path: z.string().min(1).max(4096),
      format: LogFormatSchema.optional(),
      name: z.string().min(1).max(255).optional(),
      ...importOptions,
      ...mountOptions,
      /** A calibration (Velodyne YAML / db.xml, Ouster metadata JSON) or a poses file on this machine. */
      calibrationPath: z.string().min(1).max(4096).optional(),
      posesPath: z.string().min(1).max(4096).optional(),
      /** Or their text (picked in a browser). */
      calibration: TextFile.optional(),
      poses: TextFile.optional(),
    })
    .strict(),
  /** Import bytes the user picked in a browser file input (browser mode). In-process callers:
   * the array's buffer is transferred to the worker, so it is detached afterwards. */
  'logs.importBytes': z
    .object({
      name: z.string().min(1).max(255),
      bytes: z.instanceof(Uint8Array).refine((b) => b.byteLength > 0, { message: 'the file is empty' }),
      format: LogFormatSchema.optional(),
      ...importOptions,
      ...mountOptions,
      /** Calibration and poses files picked beside the log (browser mode): name and text. */
      calibration: TextFile.optional(),
      poses: TextFile.optional(),
    })
    .strict(),
  /** The log formats the importer reads and the export formats, with labels and what each needs. */
  'formats.list': empty,
  /**
   * Export a log or a run (a job): one file (pcd, ply, las, mcap) or a KITTI folder at `path`,
   * absolute or relative to the project's folder; an existing file (a non-empty KITTI folder) is
   * a `conflict` unless `force` (services/export-target.ts).
   */
  'export.start': z
    .object({
      source: z.object({ kind: z.enum(['log', 'run']), id: Id }).strict(),
      format: z.enum(EXPORT_FORMATS),
      path: z.string().min(1).max(4096),
      force: z.boolean().default(false),
      /** LAS only: '1.2' writes point format 3 for readers that refuse 1.4 (default '1.4', format 6). */
      lasVersion: z.enum(['1.2', '1.4']).optional(),
      /** MCAP only: one PointCloud2 per revolution (default) or per packet. */
      mcapMessages: z.enum(['revolution', 'packet']).optional(),
    })
    .strict(),
  'scenes.list': empty,
  'scenes.delete': z.object({ id: Id }).strict(),
  /**
   * A stored scene in display form (the Scenes page's 3D view): its instances walked into
   * world-space triangles and Gaussians with class and object ids, evenly decimated to at most
   * `budget` triangles and `gaussianBudget` Gaussians (src-worker/scene/scene-preview.ts).
   */
  'scenes.preview': z
    .object({ id: Id, budget: z.number().int().min(0).max(5_000_000).default(300_000), gaussianBudget: z.number().int().min(0).max(1_000_000).default(50_000) })
    .strict(),
  /** Build a procedural scene in a worker and store it (a job). */
  'scenes.generate': z
    .object({
      kind: SceneKindSchema,
      seed: Seed.default(1),
      name: z.string().min(1).max(255).optional(),
      /** Kind-specific parameters, checked by the generator (e.g. sizeM, lambda, backgroundOffset). */
      params: z.record(z.string(), z.number().finite()).default({}),
    })
    .strict(),
  /** A terrain's height grid for the scene editor (a worker samples it; docs/design.md, *Scene editor*). */
  'scenes.terrain': z.object({ terrain: TerrainSpecSchema }).strict(),
  /**
   * Build a scene from a terrain and primitives placed by hand (a job; the scene editor's *Save
   * as new scene*). Every placement is checked first — the primitive exists and has elements for
   * `mode`, its scale keeps it in its class's size range (src-common/class-sizes.ts), it stands on
   * the terrain — and the first problem is refused naming the placement. `editedFrom`: the scene
   * this one was edited from, recorded in its metadata.
   */
  'scenes.author': z
    .object({
      name: z.string().min(1).max(255).optional(),
      mode: z.enum(SCENE_SIMULATION_MODES).default('hybrid'),
      terrain: TerrainSpecSchema,
      placements: z.array(AuthoredPlacementSchema).max(20_000),
      editedFrom: z.number().int().positive().optional(),
    })
    .strict(),
  /**
   * What a sensor sees while a scene is authored (docs/design.md, *Scene editor*): one revolution
   * of `profileId` at `mount` on a vehicle standing at (x, y) heading `yawDeg`, simulated in a
   * worker over the editor's terrain and placements as they are (checked as scenes.author checks
   * them; nothing is stored). The worker keeps the scene it built, so moving the vehicle only
   * re-simulates.
   */
  'scenes.sensorPreview': z
    .object({
      mode: z.enum(SCENE_SIMULATION_MODES).default('hybrid'),
      terrain: TerrainSpecSchema,
      placements: z.array(AuthoredPlacementSchema).max(20_000),
      profileId: z.string().min(1).max(128),
      mount: StudyMount.prefault({}),
      vehicle: z.object({ x: z.number().finite(), y: z.number().finite(), yawDeg: z.number().finite().default(0), length: z.number().min(0.2).max(20).default(2.5), width: z.number().min(0.2).max(20).default(1.5) }).strict(),
      seed: Seed.default(1),
    })
    .strict(),
  'runs.list': empty,
  'runs.get': z.object({ id: Id }).strict(),
  'runs.delete': z.object({ id: Id }).strict(),
  'runs.cloud': CloudRequest,
  'runs.timeline': TimelineRequest,
  /** Simulate a sensor along a trajectory in a scene (a parallel job); the run is stored. */
  'simulate.start': z
    .object({
      /**
       * The source, exactly one: a stored scene; a fitted model simulated as a geo-specific
       * scene (modelId); or a training drive log replayed by the neighbour simulator
       * (neighbourLogId, mode 'neighbour').
       */
      sceneId: Id.optional(),
      modelId: Id.optional(),
      neighbourLogId: Id.optional(),
      /** Required, but with raysFromLogId, where the default is the log's own profile. */
      profileId: z.string().min(1).max(128).optional(),
      /** Default: 'neighbour' for neighbourLogId, else 'hybrid'. */
      mode: SimulationModeSchema.optional(),
      seed: Seed.default(1),
      /** Required, but with raysFromLogId (which fires from the log's own poses; a `log` trajectory of the same log is accepted). */
      trajectory: TrajectorySpec.optional(),
      /**
       * Simulate exactly this drive log's rays (docs/simulation.md, *Simulating a log's own rays*):
       * every logged pulse, misses included, fired from its packet's pose in its direction, with
       * its firing time and ring; the run keeps the log's packets, and evaluation pairs it ray by ray.
       */
      raysFromLogId: Id.optional(),
      ...mountOptions,
      name: z.string().min(1).max(255).optional(),
      /** Packets per batch (a unit of parallel work); fixed so results do not depend on workers. */
      batchPackets: z.number().int().min(1).max(100_000).default(64),
      rangeSampler: z.enum(RANGE_SAMPLERS).default('along-ray'),
      /** Range noise σ (m) instead of the profile's, for mesh and physics returns (000 §V-C's mesh baseline: 0.005). */
      rangeNoiseSigma: z.number().min(0).max(10).optional(),
      /** Neighbour mode: hits closer than this to the query ray count (d⊥ threshold, m; default 0.1). */
      neighbourRadius: z.number().positive().max(5).optional(),
      /**
       * Neighbour simulator replaying a log along that log's own poses: leave out the hits it
       * logged within this many seconds of each ray, so it answers from what it saw at other
       * times instead of copying the ray's own return (a held-out evaluation; 0 = off).
       */
      neighbourLeaveOutS: z.number().min(0).max(3600).optional(),
    })
    .strict()
    .refine((r) => [r.sceneId, r.modelId, r.neighbourLogId].filter((v) => v !== undefined).length === 1, { error: 'give one of sceneId, modelId or neighbourLogId' })
    .refine((r) => (r.mode === 'neighbour') === (r.neighbourLogId !== undefined) || (r.mode === undefined && r.neighbourLogId !== undefined), {
      error: "mode 'neighbour' replays a drive log: it goes with neighbourLogId, and neighbourLogId with it",
    })
    .refine((r) => r.neighbourRadius === undefined || r.neighbourLogId !== undefined, { error: 'neighbourRadius applies to the neighbour simulator (neighbourLogId) only' })
    .refine((r) => r.neighbourLeaveOutS === undefined || r.neighbourLogId !== undefined, { error: 'neighbourLeaveOutS applies to the neighbour simulator (neighbourLogId) only' })
    .refine((r) => r.raysFromLogId !== undefined || (r.trajectory !== undefined && r.profileId !== undefined), { error: 'give a trajectory and a profileId (or raysFromLogId, which fires a drive log\'s own rays)' })
    .refine((r) => r.raysFromLogId === undefined || r.trajectory === undefined || (r.trajectory.kind === 'log' && r.trajectory.logId === r.raysFromLogId && r.trajectory.seconds === undefined), {
      error: 'raysFromLogId fires the log\'s rays from its own poses: give no other trajectory',
    })
    .refine((r) => r.raysFromLogId === undefined || (r.mount === undefined && r.extrinsicPath === undefined && r.extrinsic === undefined), {
      error: 'raysFromLogId fires the log\'s rays from its own sensor poses: a mount or an extrinsic does not apply',
    }),
  /** Fitted models (hybrid ground + ellipsoids, and the voxel permeability model) of the project. */
  'models.list': empty,
  'models.get': z.object({ id: Id }).strict(),
  'models.delete': z.object({ id: Id }).strict(),
  /**
   * Terrain primitives (docs/methods.md §3): 'hybrid' ones extracted from a fitted model and its log's
   * labelled segments, 'mesh' ones generated procedurally (the baseline). `get` adds the
   * elements in the primitive frame (origin at the box's base centre, x along its length).
   */
  'primitives.list': empty,
  'primitives.get': z.object({ id: Id }).strict(),
  'primitives.delete': z.object({ ids: z.array(Id).min(1).max(100_000) }).strict(),
  /**
   * Extract primitives from a fitted model (a job): segments of its source log labelled by an
   * annotation (default: the log's own) or, with `autoSegment` or no annotation, by Euclidean
   * clustering with a size-based class proposal; shrub patches split into `patchCell` cells.
   */
  'primitives.extract': z
    .object({
      modelId: Id,
      annotationId: Id.optional(),
      autoSegment: z.boolean().default(false),
      patchCell: z.number().min(0.5).max(20).default(2),
      /**
       * Annotation classes to model (class ids). Default: the four shrub and three tree sizes
       * (the thesis's classes); add grass (2), rock (10) or fallen log (14) to learn those too.
       */
      classes: z.array(z.number().int().min(1).max(255)).min(1).max(64).optional(),
    })
    .strict(),
  /**
   * Generate the mesh-primitive baseline library (procedural trunk + crown trees, shrub blobs):
   * one mesh per shrub or tree entry of `annotationId`, scaled to its box (as the hybrid
   * primitives of that annotation are), or `variants` seeded meshes of nominal size per class.
   */
  'primitives.generateMesh': z
    .object({ seed: Seed.default(1), variants: z.number().int().min(1).max(20).default(3), annotationId: Id.optional() })
    .strict(),
  /**
   * Compose a scene from an annotation (a job; docs/methods.md §3): per entry the primitive of its class
   * (from `library`) with the nearest box extents, placed at its pose; the ground from a fitted
   * model (`groundModelId`) or flat at `groundZ`. Built for one simulation `mode` (hybrid:
   * ellipsoids, voxel: voxel Gaussians, mesh/physics: triangles); default hybrid for the hybrid
   * library, mesh for the mesh one.
   */
  'scenes.compose': z
    .object({
      annotationId: Id,
      library: z.enum(['hybrid', 'mesh']).default('hybrid'),
      mode: SimulationModeSchema.optional(),
      groundModelId: Id.optional(),
      groundZ: z.number().finite().optional(),
      /** Only primitives extracted from these models (default: every primitive of the library). */
      fromModels: z.array(Id).max(1000).optional(),
      name: z.string().min(1).max(255).optional(),
    })
    .strict()
    .refine((r) => (r.groundModelId === undefined) !== (r.groundZ === undefined), { error: 'give either groundModelId or groundZ' }),
  /**
   * Fit a model to a drive log (docs/methods.md §1–2): a job whose result names the replay job
   * (`replayJob`); that job's result is a FitResultInfo. `params` overrides θ by name
   * (src-worker/fit/params.ts); the seed drives the k-means seeding.
   */
  'fit.start': z
    .object({
      logId: Id,
      name: z.string().min(1).max(255).optional(),
      seed: Seed.default(1),
      params: z.record(z.string(), z.number().finite()).default({}),
      /**
       * Tune θ first (docs/methods.md §1 step 5): Nelder–Mead over `params` (default: φ_thresh, clusters
       * per point, Mahalanobis limit, min points per cluster) on the log's packets in
       * [startS, startS + seconds), minimising mean packet error + 2(1 − F1) of the slice
       * re-simulated in its own model; then the fit runs with the best θ. The job chain is
       * 'fit-tune' (result names `fitJob`) → 'fit' → 'fit-replay'.
       */
      tune: z
        .object({
          params: z.array(z.string().min(1).max(64)).min(1).max(12).optional(),
          seconds: z.number().positive().max(600).default(10),
          startS: z.number().min(0).default(0),
          evaluations: z.number().int().min(2).max(500).default(30),
        })
        .strict()
        .optional(),
    })
    .strict(),
  /** Built-in profiles and, with a project open, the project's custom ones. */
  'profiles.list': empty,
  /** A profile in SI units (SensorProfile). */
  'profiles.get': z.object({ id: ProfileId }).strict(),
  /** A profile in the file form (ProfileFile: degrees, ms, mrad), as files and the editor hold it. */
  'profiles.getFile': z.object({ id: ProfileId }).strict(),
  /** Save a custom profile (insert, or replace the custom profile of that id); either form; checked field by field. */
  'profiles.save': z.object({ profile: ProfileBody }).strict(),
  'profiles.delete': z.object({ id: ProfileId }).strict(),
  /** A calibration file on the host (ROS velodyne YAML, Velodyne db.xml, Ouster metadata JSON, or a Thicket profile JSON) → a saved custom profile. */
  'profiles.import': z
    .object({
      path: z.string().min(1).max(4096),
      id: ProfileId.optional(),
      name: z.string().min(1).max(200).optional(),
      /** The sensor model, overriding detection from the file ('vlp32c', 'os1-64-2048', …; docs/methods.md §5). */
      model: z.string().min(1).max(32).optional(),
    })
    .strict(),
  /** One revolution's beam directions, decimated for display; of a stored profile (`id`) or of an unsaved one (`profile`, checked as by save). */
  'profiles.pattern': z
    .object({ id: ProfileId.optional(), profile: ProfileBody.optional(), maxRays: z.number().int().min(100).max(2_000_000).default(60_000) })
    .strict()
    .refine((r) => (r.id === undefined) !== (r.profile === undefined), { error: 'give either id or profile' }),
  /**
   * Build the demo project's content: the reference site (stored as a scene), its ground truth, and
   * the training and test drives (drive logs). A job: see DemoResult. With `path`, that project is
   * created (opened when it exists) first; without, the open project gets it.
   */
  'demo.create': z
    .object({
      seed: Seed.default(1),
      small: z.boolean().default(false),
      path: ProjectPath.optional(),
      /** Then the Table 4.3 experiment, as `thicket demo` runs it (its steps are jobs; `demo` events follow it). */
      experiment: z.boolean().default(false),
    })
    .strict(),
  /** Annotations of the project, or of one drive log. */
  'annotations.list': z.object({ logId: Id.optional() }).strict(),
  'annotations.get': z.object({ id: Id }).strict(),
  /**
   * Labelling a drive log (docs/labeling.md): the project's class list, the log's returns with
   * their labels, saved label versions (the newest is the log's per-ray classes and object ids,
   * which fitting, extraction and evaluation read), comparison of two versions, automatic
   * proposals, and SemanticKITTI / KITTI object / Thicket JSON in and out.
   */
  'labels.classes': empty,
  'labels.saveClasses': z.object({ classes: z.array(LabelClassSchema).min(1).max(256) }).strict(),
  'labels.cloud': z.object({ logId: Id, version: z.number().int().min(1).optional() }).strict(),
  'labels.versions': z.object({ logId: Id }).strict(),
  'labels.save': z
    .object({
      logId: Id,
      /** The version the edit started from (null: none saved yet); a newer one saved meanwhile is a conflict. */
      baseVersion: z.number().int().min(1).nullable(),
      /** Per point of labels.cloud (same order): class id and object (instance) id, 0 = none. */
      classes: z.instanceof(Uint8Array),
      instances: z.instanceof(Uint32Array),
      entries: z.array(z.record(z.string(), z.unknown())).max(100_000).default([]),
      author: z.string().max(100).default(''),
      note: z.string().max(1000).default(''),
    })
    .strict(),
  'labels.compare': z.object({ logId: Id, a: z.number().int().min(1), b: z.number().int().min(1) }).strict(),
  /** Automatic proposals (ground segmentation, then Euclidean clusters classed by size): a job whose result is a new version (source 'auto'). */
  'labels.propose': z.object({ logId: Id, minHeight: z.number().min(0).max(5).default(0.25) }).strict(),
  'labels.import': z
    .object({
      logId: Id,
      path: z.string().min(1).max(4096),
      format: z.enum(LABEL_FORMATS).optional(),
      /** SemanticKITTI: a class-map file (YAML or JSON: source label → Thicket class name or id); default by the file's dataset (RELLIS-3D, SemanticKITTI). */
      classMap: z.string().min(1).max(4096).optional(),
      classMapName: z.enum(['rellis3d', 'semantic-kitti']).optional(),
      /** KITTI object boxes: the scan's calibration file (Tr_velo_to_cam, R0_rect). */
      calibration: z.string().min(1).max(4096).optional(),
    })
    .strict(),
  'labels.export': z
    .object({
      logId: Id,
      version: z.number().int().min(1).optional(),
      path: z.string().min(1).max(4096),
      format: z.enum(LABEL_FORMATS),
      force: z.boolean().default(false),
      /** KITTI object boxes: the scan's calibration file (Tr_velo_to_cam, R0_rect). */
      calibration: z.string().min(1).max(4096).optional(),
    })
    .strict(),
  /** Sensor studies: stored definitions and, once run, one result per sensor and mount. */
  'studies.list': empty,
  'studies.get': z.object({ id: Id }).strict(),
  'studies.delete': z.object({ id: Id }).strict(),
  /** One run's history for a synced panel: frames, vehicle poses, plans, decimated points and (with `events`) the cost rises to replay the map at any frame. */
  'studies.run': z
    .object({ id: Id, seq: z.number().int().min(0), cloudBudget: z.number().int().min(0).max(2_000_000).default(200_000), events: z.boolean().default(true) })
    .strict(),
  /** One run's costmap at simulated time `time` (s; default: the end): the map after every scan that ended by then. */
  'studies.costmap': z.object({ id: Id, seq: z.number().int().min(0), time: z.number().min(0).optional() }).strict(),
  /** The study as one self-contained HTML page: costmap images (PNG data URIs) with tracks, paths, start and goal, and the metrics table. */
  'studies.report': z.object({ id: Id }).strict(),
  /** Run a study (a parallel job, one task per sensor and mount): a new definition, or a stored study again. */
  'study.start': z
    .object({ definition: StudyDefinition.optional(), study: Id.optional() })
    .strict()
    .refine((r) => (r.definition === undefined) !== (r.study === undefined), { error: 'give either definition or study' }),
  /**
   * A live drive (docs/studies.md, "Live drives"): a closed-loop study's runs as a job whose every
   * scan reaches the pages as a `drive` event while it runs; nothing is stored until drive.save.
   */
  'drive.start': z.object({ definition: StudyDefinition }).strict(),
  /** Store a finished live drive as a study (the session keeps its newest four drives). */
  'drive.save': z.object({ job: Id, name: z.string().min(1).max(255).optional() }).strict(),
  /** Evaluate a run against a real drive log (a job; its result is the metrics and the stored evaluation's id). */
  'evaluate.start': z.object({ realLogId: Id, runId: Id, params: EvaluationParams.default({}) }).strict(),
  /**
   * The real-data experiment (docs/fitting-and-primitives.md): fit the training log, build every
   * simulator from it, simulate the test log's own rays with each and evaluate them, plus the
   * hybrid model's self-check. A sequence of ordinary jobs (each in the jobs panel, cancel there);
   * answers when the last has finished.
   */
  'experiments.run': z
    .object({
      trainLogId: Id,
      testLogId: Id,
      seed: Seed.default(1),
      /** The simulated sensor; default each log's own profile. */
      profileId: z.string().min(1).max(128).optional(),
      /** Fitting parameters θ (docs/methods.md §1). */
      fitParams: z.record(z.string(), z.number().finite()).default({}),
      /** Evaluation parameters for every evaluation, the region among them. */
      params: EvaluationParams.default({}),
    })
    .strict(),
  /**
   * Application-level risk of a run against a real drive log (a job; docs/methods.md,
   * "Application-level risk"): an application's objective on both for `samples` draws of its
   * parameters; the result is stored and is the job's result with the stored risk's id.
   */
  'risk.start': z
    .object({
      realLogId: Id,
      runId: Id,
      application: z.enum(APPLICATIONS),
      samples: z.number().int().min(1).max(10_000).default(50),
      seed: Seed.default(1),
      /** Scan matching: consecutive revolution pairs matched per side at most. */
      maxPairs: z.number().int().min(1).max(10_000).default(10),
    })
    .strict(),
  /** Stored risks, oldest first; optionally of one run or one log. */
  'risks.list': z.object({ runId: Id.optional(), realLogId: Id.optional() }).strict(),
  /** Stored evaluations, newest last; optionally of one run or one log. */
  'evaluations.list': z.object({ runId: Id.optional(), realLogId: Id.optional() }).strict(),
  /** One evaluation with its per-packet series. */
  'evaluations.get': z.object({ id: Id }).strict(),
  'evaluations.delete': z.object({ id: Id }).strict(),
  /**
   * The evaluation's paired rays with at least one hit, each with both world points and its range
   * error (simulated − real range), re-paired in a worker and decimated evenly to `budget` pairs
   * (docs/methods.md §6, *Per-ray range error*).
   */
  'evaluations.rayErrors': z.object({ id: Id, budget: z.number().int().min(1_000).max(5_000_000).default(1_000_000) }).strict(),
  /** Learn a sensor noise model from a log of repeated static scans (a job; docs/methods.md §8): its result is the summary and the stored model's id. */
  'noise.learn': z
    .object({
      logId: Id,
      method: z.enum(NOISE_METHODS).default('p-reg'),
      testFraction: z.number().gt(0).lt(1).default(0.3),
      seed: Seed.default(1),
      name: z.string().min(1).max(200).optional(),
    })
    .strict(),
  'noise.list': empty,
  'noise.get': z.object({ id: Id }).strict(),
  'jobs.list': z.object({ limit: z.number().int().min(1).max(1000).default(100) }).strict(),
  'jobs.get': z.object({ id: Id }).strict(),
  'jobs.cancel': z.object({ id: Id }).strict(),
  /** Removes the records of finished jobs in these states (default: the failed ones); what they made stays. */
  'jobs.clear': z.object({ states: z.array(z.enum(['failed', 'cancelled', 'interrupted', 'done'])).min(1).default(['failed']) }).strict(),
} as const;

export type Method = keyof typeof requestSchemas;
/** What a caller passes (defaults optional). */
export type Request<M extends Method> = z.input<(typeof requestSchemas)[M]>;
/** What a handler receives (defaults applied). */
export type ParsedRequest<M extends Method> = z.output<(typeof requestSchemas)[M]>;

// ---------- response types ----------

export interface AppInfo {
  name: 'Thicket';
  version: string;
  /** 'electron', 'web' (browser mode against the headless host) or 'cli'. */
  shell: 'electron' | 'web' | 'cli';
  schemaVersion: number;
  workers: number;
  /** Where new projects go by default (the user's documents folder or THICKET_HOME). */
  defaultProjectDir: string;
}

export type EntityName =
  | 'sensorProfiles'
  | 'driveLogs'
  | 'annotations'
  | 'models'
  | 'primitives'
  | 'scenes'
  | 'runs'
  | 'evaluations'
  | 'studies'
  | 'jobs';

export interface ProjectInfo {
  path: string;
  name: string;
  schemaVersion: number;
  counts: Record<EntityName, number>;
  /** Set when the file failed SQLite's quick_check on open: what is wrong and how to recover. The project is then read-only. */
  damaged?: string;
}

/** `project.compact`: the open project's file rewritten without its unused pages. */
export interface CompactResult {
  path: string;
  /** The file's size before and after (bytes). */
  bytesBefore: number;
  bytesAfter: number;
  /** Unused pages before, as a fraction of the file. */
  freeFractionBefore: number;
}

export interface RecentProject {
  path: string;
  name: string;
  openedAt: string;
  exists: boolean;
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

/** What a stream of packets holds: a drive log's or a run's totals. */
export interface CloudTotals {
  packets: number;
  points: number;
  hits: number;
  misses: number;
  durationS: number;
  bounds: Bounds | null;
}

export interface DriveLogInfo extends CloudTotals {
  id: number;
  name: string;
  format: DriveLogFormat;
  sourcePath: string | null;
  profileId: string | null;
  /** What the importer learnt: sensor model, return mode, GPS fixes, rebuilt misses, poses file, ... */
  info: Record<string, unknown>;
  createdAt: string;
}

/** Decimated display cloud; arrays are typed and travel as binary frames / structured clones. */
export interface CloudData {
  /** What the cloud shows: a recorded drive log or a simulated run. */
  source: { kind: 'log' | 'run'; id: number };
  totalPoints: number;
  /** x,y,z world coordinates, 3 per point. */
  positions: Float32Array;
  intensity: Float32Array;
  /** Seconds since the log's start. */
  time: Float32Array;
  /** Class id per point (0 = unlabeled; simulated runs carry the ground truth). */
  classId: Uint8Array;
  /** Laser (ring) index per point; 0xffff where the format does not say. */
  ring: Uint16Array;
  /** Bounds of every hit shown before decimation (of the range, when one was asked for). */
  bounds: Bounds | null;
  /** The packets shown (from ≤ index < to); null for the whole log. */
  packets: { from: number; to: number } | null;
  /** The range's misses when asked for: per kept miss the sensor position then the point `lengthM` along the ray (world x, y, z each). */
  misses: { total: number; lengthM: number; segments: Float32Array } | null;
}

/** A log's (or a run's) time axis for playback. */
export interface Timeline {
  source: { kind: 'log' | 'run'; id: number };
  packets: number;
  /** Seconds since the log's start, one per packet. */
  packetTime: Float64Array;
  /** First packet of each sweep (one revolution or scan), ascending from 0; sweep k ends where k + 1 starts, the last at `packets`. */
  sweepStart: Uint32Array;
  /** How sweeps were cut: where the first ray's azimuth wraps, one per packet (each packet a whole scan), or one for the whole log. */
  sweepBy: 'azimuth' | 'packet' | 'single';
  /** The sensor's path, decimated: packet index and world position (x, y, z) of each kept packet, first and last included. */
  trajectory: { packet: Uint32Array; position: Float64Array };
}

/** One annotated object (thesis 004's scene annotation). */
export interface AnnotationEntry {
  /** The object id its rays carry (ray_object). */
  id: number;
  /** Class id, as the rays' ground truth (ray_class), and its name. */
  class: number;
  label: string;
  /** Several shrubs annotated as one object. */
  patch?: boolean;
  /** World ← object: tx, ty, tz, qx, qy, qz, qw. */
  pose: [number, number, number, number, number, number, number];
  /** Oriented box: centre, size [length along yaw, width, height] (m), yaw (rad, counter-clockwise from +x). */
  box: { center: [number, number, number]; size: [number, number, number]; yaw: number };
  /** The box was set by hand on the Label page (docs/labeling.md), not fitted from the points: kept as it is. */
  boxSet?: boolean;
}

/** A saved version of a log's labels. */
export interface LabelVersionInfo {
  id: number;
  logId: number;
  /** 1, 2, … per log. */
  version: number;
  source: 'edit' | 'import' | 'auto';
  author: string;
  note: string;
  createdAt: string;
  /** Returns labelled (class ≠ 0) of all returns. */
  points: number;
  labelled: number;
  /** Returns per class (class ≠ 0), ascending class id. */
  counts: { class: number; points: number }[];
  /** Returns whose class or object differ from the previous version; null for the first. */
  changed: number | null;
  objects: number;
}

/**
 * Every return of a log, in the world frame, for labelling (docs/labeling.md). Arrays are aligned
 * point by point in the log's ray order (hits only); labels.save takes classes and instances in
 * the same order.
 */
export interface LabelCloud {
  logId: number;
  /** The version these labels are (null: none saved; the log's own classes as imported). */
  version: number | null;
  points: number;
  /** World coordinates minus `origin` (float32 keeps mm only near the origin), 3 per point. */
  positions: Float32Array;
  origin: [number, number, number];
  /** The point's ray in the log's ray order (all rays, misses included), and its packet. */
  rayIndex: Uint32Array;
  packet: Uint32Array;
  classes: Uint8Array;
  instances: Uint32Array;
  /** Confidence of an automatic proposal per point (1 = certain, as labelled by hand). */
  confidence: Float32Array;
  /** Height above the local ground (m; from the log's ground segmentation), NaN where no ground is near. */
  heightAboveGround: Float32Array;
  /** First point of each sweep (revolution or scan), ascending, for the per-sweep view. */
  sweepStart: Uint32Array;
  /** The objects (segments, patches) with their boxes. */
  entries: AnnotationEntry[];
}

/** Two versions of one log's labels compared point by point. */
export interface LabelComparison {
  a: number;
  b: number;
  points: number;
  /** Points whose class differs, and whose object differs. */
  classChanged: number;
  objectChanged: number;
  /** Per class: points with it in a, in b, in both; agreement = both / (a + b − both) (intersection over union). */
  perClass: { class: number; a: number; b: number; both: number; agreement: number }[];
  /** Points with the same class in both, over all points. */
  overallAgreement: number;
}

export interface AnnotationInfo {
  id: number;
  name: string;
  /** The drive log it annotates, or null (a scene's, or authored). */
  logId: number | null;
  /** Number of entries. */
  count: number;
  createdAt: string;
}

export interface AnnotationData extends AnnotationInfo {
  entries: AnnotationEntry[];
}

/** The result of the demo's final job (kind 'demo-drives'; the 'demo' job's result names it as `drivesJob`). */
export interface DemoResult {
  /** objects: annotated objects, the terrain included; triangles: as placed (instances counted). */
  site: { seed: number; small: boolean; objects: number; triangles: number; scene: number; annotation: number };
  logs: { log: number; name: string; packets: number; rays: number; hits: number; misses: number; durationS: number; annotation: number }[];
}

export interface JobInfo {
  id: number;
  kind: string;
  state: JobState;
  progress: number;
  message: string;
  error: string | null;
  params: Record<string, unknown>;
  result: Record<string, unknown> | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface ImportStarted {
  job: JobInfo;
}

export interface SceneInfo {
  id: number;
  name: string;
  /** What the scene holds (kind, seed, counts, bounds): small JSON. */
  meta: Record<string, unknown>;
  createdAt: string;
}

/** A fitted model (src-worker/fit): its θ, and the fit report (counts, σ²_ground, timings). */
export interface ModelInfo {
  id: number;
  name: string;
  kind: string;
  sourceLogId: number | null;
  /** θ as used (every parameter, defaults included) and the seed. */
  params: Record<string, unknown>;
  /** counts, groundVariance, maxRange, timings (ms), bounds, … */
  report: Record<string, unknown> | null;
  /** Elements stored: ground triangles, ellipsoids, voxel Gaussians. */
  counts: { triangles: number; ellipsoids: number; voxels: number };
  groundVariance: number;
  jobId: number | null;
  createdAt: string;
}

/** A stored terrain primitive (src-worker/primitives/primitive.ts), without its elements. */
export interface PrimitiveInfo {
  id: number;
  /** Class id and its name (the shrub and tree sizes of docs/methods.md §3). */
  class: number;
  label: string;
  /** Box extents [length, width, height] (m). */
  extents: [number, number, number];
  /** 'hybrid': extracted from a fitted model; 'mesh': the procedural baseline. */
  library: 'hybrid' | 'mesh';
  /** 'object': a whole labelled segment; 'patch-cell': one cell of a shrub patch; 'procedural'. */
  source: 'object' | 'patch-cell' | 'procedural';
  modelId: number | null;
  sourceLogId: number | null;
  counts: { ellipsoids: number; voxels: number; triangles: number; points: number };
  /** Provenance: extraction pose, segment / annotation entry id, patch cell, generator seed. */
  origin: Record<string, unknown>;
  createdAt: string;
}

/** A primitive with its elements, in the primitive frame. */
export interface PrimitiveData extends PrimitiveInfo {
  ellipsoids: { means: Float64Array; covariances: Float64Array; pHit: Float32Array } | null;
  voxels: { means: Float64Array; covariances: Float64Array; permeability: Float32Array } | null;
  triangles: Float32Array | null;
  reflectance: Float32Array | null;
  points: Float32Array | null;
}

/** The result of a primitives.extract job. */
export interface ExtractResult {
  model: number;
  log: number | null;
  annotation: number | null;
  /** How segments were labelled. */
  labels: 'annotation' | 'ground-truth' | 'clustering';
  segments: number;
  primitives: number;
  /** Primitives per class name. */
  byClass: Record<string, number>;
  /** Segments skipped, and why (no elements inside the box, too few points …). */
  skipped: { segment: number; reason: string }[];
  ids: number[];
}

/**
 * A stored scene in display form (src-worker/scene/scene-preview.ts ScenePreview): positions are
 * relative to `centre` (world), so float32 keeps centimetres far from the origin.
 */
export interface ScenePreviewData {
  centre: [number, number, number];
  bounds: { min: [number, number, number]; max: [number, number, number] };
  instances: number;
  /** 9 floats per triangle; per triangle the placing instance's class and object id, and kind (0 mesh, 1 ground); `total` as placed. */
  triangles: { positions: Float32Array; classIds: Uint8Array; objectIds: Int32Array; kinds: Uint8Array; total: number };
  /** μ (3 each) and world Σ (6 each: xx, xy, xz, yy, yz, zz); p_hit (voxels 1 − ρ); kind 2 ellipsoid, 3 voxel; `total` as placed. */
  gaussians: { means: Float32Array; covariances: Float32Array; pHit: Float32Array; kinds: Uint8Array; classIds: Uint8Array; objectIds: Int32Array; total: number };
  mahalanobisThreshold: number;
  voxelTau: number;
}


/** The result of a scenes.author job. */
export interface AuthorResult {
  scene: number;
  mode: SimulationMode;
  placements: number;
  /** Distinct (primitive, scale) pairs, each stored once. */
  primitivesUsed: number;
  editedFrom: number | null;
  memoryBytes: number;
}

/** The result of a scenes.compose job. */
export interface ComposeResult {
  scene: number;
  mode: SimulationMode;
  entries: number;
  /** Distinct primitives placed (each stored once, instanced per entry). */
  primitivesUsed: number;
  /** Entries given a primitive of another class of the same family, and entries left out. */
  fallbacks: { entry: number; wanted: string; used: string }[];
  missing: { entry: number; class: string; reason: string }[];
}

/** The result of a fit (the 'fit-replay' job's result; `thicket fit --json` prints it). */
export interface FitResultInfo {
  model: number;
  ellipsoids: number;
  triangles: number;
  voxels: number;
  groundVariance: number;
  /** Wall seconds from fit.start to the stored model. */
  seconds: number;
  /** Set when θ was tuned first (the full trace is in the model's report). */
  tuning?: FitTuningSummary;
}

/** What tuning found (the model report's `tuning` adds the trace of every evaluation). */
export interface FitTuningSummary {
  /** The tuned parameters at their best values. */
  best: Record<string, number>;
  /** J = mean packet error + 2(1 − F1) at the best θ, and at the starting θ. */
  objective: number;
  startObjective: number;
  evaluations: number;
  stopped: 'budget' | 'converged';
  /** The slice tuned on: packets and their time span (s from the log's start). */
  slice: { packets: number; from: number; to: number };
  seconds: number;
}

export interface RunInfo extends CloudTotals {
  id: number;
  name: string;
  sceneId: number | null;
  profileId: string;
  mode: SimulationMode;
  seed: number;
  trajectory: Record<string, unknown> | null;
  params: Record<string, unknown>;
  createdAt: string;
}

export interface ProfileSummary {
  id: string;
  name: string;
  builtin: boolean;
  kind: ProfileKind;
  lasers: number;
  rotationHz: number;
  /** Metres. */
  rangeMax: number;
  /** Calibration file or reference the per-laser numbers came from. */
  source: string;
  description: string;
  /** Lowest and highest laser elevation (degrees). */
  elevationMinDeg: number;
  elevationMaxDeg: number;
  raysPerRevolution: number;
  raysPerSecond: number;
}

/** One sensor-and-mount run's metrics (the CLI's `sensors` entries). */
export interface StudySensorResult extends StudyMetrics {
  seq: number;
  profile: string;
  mount: StudyMount;
}

export type StudyState = 'defined' | JobState;

export interface StudyInfo {
  id: number;
  name: string;
  sceneId: number | null;
  loop: StudyLoop;
  seconds: number;
  /** Sensor-and-mount runs the definition asks for. */
  runs: number;
  /** 'done' once results are stored; else the state of its last job ('defined' when never run). */
  state: StudyState;
  jobId: number | null;
  createdAt: string;
}

/** Where a study runs, resolved from its definition and scene. */
export interface StudyLayout {
  start: [number, number];
  goal: [number, number];
  startHeadingDeg: number;
  grid: { originX: number; originY: number; cellM: number; width: number; height: number; hMax: number; lethalCost: number; unknownCost: number };
  /** Open loop: the fixed route (x y pairs). */
  route: number[] | null;
}

export interface StudyData extends StudyInfo {
  definition: StudyDefinition;
  layout: StudyLayout;
  results: StudySensorResult[] | null;
}

export interface StudyRunData {
  study: number;
  seq: number;
  metrics: StudySensorResult;
  layout: StudyLayout;
  vehicle: { length: number; width: number };
  /** Per frame (one scan: a revolution or an LMS sweep), the simulated time its scan ended (s). */
  frameTime: Float64Array;
  /** Vehicle at each frame's start and at the end (frames + 1 rows): t, x, y, z, yaw (s, m, rad). */
  poses: Float64Array;
  /** Plans in order: the frames seen when each was made, its first vertex in planXY (plans + 1 entries), vertices x y. An empty plan: no path. */
  planFrame: Uint32Array;
  planStart: Uint32Array;
  planXY: Float32Array;
  /** Registered points, decimated to the budget: world x y z, their frame, ground-truth class. */
  cloud: { total: number; xyz: Float32Array; frame: Uint32Array; classId: Uint8Array };
  /** The map's history: frame k's rises are cell[frameStart[k] … frameStart[k+1]) with their new costs; replay them onto an all-unknown (255) grid. */
  costEvents: { frameStart: Uint32Array; cell: Uint32Array; cost: Uint8Array } | null;
}

export interface StudyCostmap {
  study: number;
  seq: number;
  /** Scans replayed and the simulated time they end at. */
  frames: number;
  time: number;
  originX: number;
  originY: number;
  cellM: number;
  width: number;
  height: number;
  lethalCost: number;
  /** Row-major from the lower-left corner (cell = iy · width + ix): 0 … 100, 255 = unknown. */
  cost: Uint8Array;
}

export interface EvaluationInfo {
  id: number;
  realLogId: number;
  runId: number;
  /** Names at the time of listing (null if the row is gone). */
  realLogName: string | null;
  runName: string | null;
  /** The options as used, defaults included. */
  params: Record<string, unknown>;
  metrics: EvaluationMetrics;
  jobId: number | null;
  createdAt: string;
}

/** Per paired packet, in order along the drive. */
export interface EvaluationSeries {
  realPacket: Uint32Array;
  simPacket: Uint32Array;
  /** Real packet time (s since the log's start). */
  time: Float64Array;
  /** Distance the real sensor has travelled (m). */
  distance: Float64Array;
  /** Mean ‖y − ŷ‖ over the packet's true hits (m); NaN when it has none. */
  error: Float32Array;
  trueHits: Uint32Array;
  falseHits: Uint32Array;
  falseMisses: Uint32Array;
}

export interface EvaluationData extends EvaluationInfo {
  perPacket: EvaluationSeries;
}

/** An evaluation's scored ray pairs with at least one hit (true hits, false hits, false misses), decimated. */
export interface EvaluationRayErrors {
  id: number;
  /** Such pairs in the evaluation, before decimation. */
  totalPairs: number;
  /** Per pair kept: the real hit's world point (x, y, z), NaN where the real ray missed. */
  real: Float32Array;
  /** The simulated hit's world point, NaN where the simulated ray missed. */
  sim: Float32Array;
  /** Simulated range − real range (m); NaN unless both hit. */
  error: Float32Array;
}

export interface Responses {
  'app.info': AppInfo;
  'project.create': ProjectInfo;
  'project.open': ProjectInfo;
  'project.close': { closed: boolean };
  'project.current': ProjectInfo | null;
  'project.recent': RecentProject[];
  'project.compact': CompactResult;
  'logs.list': DriveLogInfo[];
  'logs.get': DriveLogInfo;
  'logs.delete': { deleted: boolean };
  'logs.cloud': CloudData;
  'logs.timeline': Timeline;
  'logs.split': { job: JobInfo };
  'logs.importFile': ImportStarted;
  'logs.importBytes': ImportStarted;
  'formats.list': FormatCatalogue;
  'export.start': { job: JobInfo };
  'scenes.list': SceneInfo[];
  'scenes.delete': { deleted: boolean };
  'scenes.preview': ScenePreviewData;
  'scenes.generate': { job: JobInfo };
  'runs.list': RunInfo[];
  'runs.get': RunInfo;
  'runs.delete': { deleted: boolean };
  'runs.cloud': CloudData;
  'runs.timeline': Timeline;
  'simulate.start': { job: JobInfo };
  'models.list': ModelInfo[];
  'models.get': ModelInfo;
  'models.delete': { deleted: boolean };
  'primitives.list': PrimitiveInfo[];
  'primitives.get': PrimitiveData;
  'primitives.delete': { deleted: number };
  'primitives.extract': { job: JobInfo };
  'primitives.generateMesh': { primitives: PrimitiveInfo[] };
  'scenes.compose': { job: JobInfo };
  'scenes.terrain': TerrainGrid;
  'scenes.author': { job: JobInfo };
  'scenes.sensorPreview': SensorPreview;
  'fit.start': { job: JobInfo };
  'profiles.list': ProfileSummary[];
  'profiles.get': SensorProfile;
  'profiles.getFile': ProfileFile;
  'profiles.save': SensorProfile;
  'profiles.delete': { deleted: boolean };
  'profiles.import': SensorProfile;
  'profiles.pattern': ProfilePattern;
  'demo.create': { job: JobInfo; project: ProjectInfo };
  'annotations.list': AnnotationInfo[];
  'annotations.get': AnnotationData;
  'labels.classes': LabelClass[];
  'labels.saveClasses': LabelClass[];
  'labels.cloud': LabelCloud;
  'labels.versions': LabelVersionInfo[];
  'labels.save': LabelVersionInfo;
  'labels.compare': LabelComparison;
  'labels.propose': { job: JobInfo };
  'labels.import': LabelVersionInfo;
  'labels.export': { path: string; bytes: number; points: number };
  'studies.list': StudyInfo[];
  'studies.get': StudyData;
  'studies.delete': { deleted: boolean };
  'studies.run': StudyRunData;
  'studies.costmap': StudyCostmap;
  'studies.report': { html: string };
  'study.start': { job: JobInfo; study: StudyInfo };
  'drive.start': { job: JobInfo; layout: StudyLayout; runs: { seq: number; profileId: string; mount: StudyMount }[] };
  'drive.save': { study: StudyInfo };
  'evaluate.start': { job: JobInfo };
  'experiments.run': RealExperiment;
  'risk.start': { job: JobInfo };
  'risks.list': RiskInfo[];
  'evaluations.list': EvaluationInfo[];
  'evaluations.get': EvaluationData;
  'evaluations.delete': { deleted: boolean };
  'evaluations.rayErrors': EvaluationRayErrors;
  'noise.learn': { job: JobInfo };
  'noise.list': NoiseModelInfo[];
  'noise.get': NoiseModelInfo;
  'jobs.list': JobInfo[];
  'jobs.get': JobInfo;
  'jobs.cancel': JobInfo;
  'jobs.clear': { cleared: number[] };
}

export type Response<M extends Method> = Responses[M];

// ---------- events (host → clients) ----------

export type ApiEvent =
  | { type: 'job'; job: JobInfo }
  | { type: 'project'; entity: EntityName | 'project'; id?: number }
  | DemoEvent
  | DriveEvent;

/** One scan of a live drive's run, as it was simulated (drive.start). */
export interface DriveEvent {
  type: 'drive';
  job: number;
  seq: number;
  frame: StudyLiveFrame;
}

/**
 * How a demo started by demo.create goes (the app's demo card): building the site, the drives,
 * the experiment's steps, then done, failed or cancelled. A demo that fails or is cancelled
 * before its drives are stored leaves no project file when demo.create had created it.
 */
export interface DemoEvent {
  type: 'demo';
  phase: 'site' | 'drives' | 'experiment' | 'done' | 'failed' | 'cancelled';
  /** The job running now (to follow or cancel). */
  jobId?: number;
  message?: string;
  /** done: the Table 4.3 rows when the experiment ran. */
  table?: { scene: string; simulator: string; f1: number | null; pointCloudError: number | null }[];
  /** failed or cancelled: whether the project file was removed. */
  removed?: boolean;
}

// ---------- errors ----------

export const ERROR_CODES = [
  'invalid_request',
  'unknown_method',
  'no_project',
  'not_found',
  'bad_input',
  'conflict',
  'cancelled',
  'unauthorized',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiErrorData {
  code: ErrorCode;
  message: string;
}

/** Thrown by services and re-thrown by clients so callers can switch on `code`. */
export class ApiError extends Error implements ApiErrorData {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
  toJSON(): ApiErrorData {
    return { code: this.code, message: this.message };
  }
}

/** The client side of the contract, implemented by the IPC and WebSocket clients. */
export interface ThicketClient {
  call<M extends Method>(method: M, request: Request<M>): Promise<Response<M>>;
  /** Subscribe to host events; returns the unsubscribe function. */
  onEvent(handler: (event: ApiEvent) => void): () => void;
}

export function isMethod(name: unknown): name is Method {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requestSchemas, name);
}
