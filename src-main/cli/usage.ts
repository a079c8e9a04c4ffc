// The format lists come from the ids the format registry is keyed by (src-worker/formats/registry.ts).
import { EXPORT_FORMATS, LOG_FORMATS } from '../../src-common/formats';

export const USAGE = `thicket — off-road lidar simulation, headless

Usage:
  thicket project create --project FILE [--json]
  thicket project info   --project FILE [--json]
  thicket project compact --project FILE [--json]
                         rewrite the file without its unused pages (after deleting or a stopped import)
  thicket demo           --project FILE [--seed N] [--small] [--no-experiment] [--risk-samples N] [--json]
                         the demo project: reference site (scene + ground truth), training and
                         test drives of an HDL-32E (drive logs); the file is created when absent;
                         then the thesis's Table 4.3 experiment (fit, primitives, test scenes,
                         hybrid/voxel/mesh/neighbour simulators, evaluation): the JSON adds "table"
                         (each row with its scan-matching risk over --risk-samples α draws: default 3
                         with --small, 10 otherwise; 0 leaves it out)
  thicket import FILE    --project FILE [--format F] [--profile ID] [--calibration FILE] [--poses FILE]
                         [--no-misses] [--name NAME] [--model M] [--json]
                         F: ${LOG_FORMATS.join(' ')}; --model states the calibration's sensor model
                         (see profile import); an organised KITTI .bin (rows × columns of the
                         profile, e.g. 64 × 2048 with os1-64-2048) gives its empty cells as misses
                         [--scans A:B] only scans A…B (numbered from 1, inclusive; A: to the last);
                         --poses: KITTI rows one per packet or one per scan (placed at each scan's
                         mid-time), TUM/CSV at their times; a file cut mid-record keeps its complete
                         records and warns on stderr (JSON: warnings)
                         [--mount x,y,z,roll,pitch,yaw | --extrinsic FILE [--extrinsic-inverse]] the sensor's
                         pose on the vehicle (vehicle ← sensor; metres, degrees, R = Rz·Ry·Rx): packet poses =
                         vehicle pose (poses file, the format's own, or the origin) · mount. FILE maps points
                         from the sensor's frame into the vehicle's (or a reference sensor's): a 4×4 matrix,
                         a 3×4 [R | t] row of 12 (KITTI), or a YAML with q (x y z w) and t; a file written
                         the other way (vehicle → sensor) needs --extrinsic-inverse
  thicket log split      --project FILE --log L --at K [--json]
                         two new logs from L: scans 1…K−1 and K… (2 ≤ K ≤ scans); L stays;
                         prints {logs: [{log, name, scans, packets}, {…}]}
  thicket noise learn    --project FILE --log L [--method p-reg|np-reg] [--test-fraction 0.3] [--seed N]
                         [--name NAME] [--json]
                         a sensor noise model learnt from L's repeated scans of a static scene
                         (docs/methods.md §8); prints {noiseModel, method, beams, trainScans, testScans,
                         risk, riskByTrainingSize: [{n, risk}], baselines, …}; a profile names it with
                         range.noiseModel, and simulations then draw ranges and nulls from it
  thicket noise list     --project FILE [--json]
  thicket annotation list    --project FILE --log L [--json]
  thicket annotation import  FILE --project FILE --log L [--format semantic-kitti|kitti-object|thicket-json]
                             [--class-map-name rellis3d|semantic-kitti | --class-map MAP] [--calibration CALIB] [--json]
  thicket annotation export  --project FILE --log L --format F --out FILE [--label-version N] [--calibration CALIB]
                             [--force] [--json]
  thicket annotation compare --project FILE --log L --versions A,B [--json]
  thicket annotation propose --project FILE --log L [--min-height 0.25] [--json]
                         a drive log's labels (docs/labeling.md): saved versions; a SemanticKITTI .label
                         (one u32 per ray or per return: class in the low 16 bits, object in the high 16;
                         classes through a class map: MAP is YAML "label: class" lines or JSON) or
                         Thicket's JSON in and out, or KITTI object boxes (camera frame: CALIB is the
                         scan's KITTI calibration file), each import a new version; per-class agreement of
                         two versions; automatic proposals (ground near the local ground, clusters
                         classed by size) as a new version
  thicket scene generate --project FILE [--kind offroad|hybrid-strip|cylinder-stand|rod-bench]
                         [--seed N] [--param key=value ...] [--name NAME] [--json]
  thicket scene list     --project FILE [--json]
  thicket scene compose  --project FILE --annotation A [--library hybrid|mesh] [--mode M]
                         (--ground-model M | --ground-z Z) [--from-models 1,2] [--name NAME] [--json]
                         a scene from an annotation: per entry the primitive of its class with the
                         nearest box, placed at its pose; prints {scene, mode, entries, primitivesUsed,
                         fallbacks, missing}
  thicket primitives extract --project FILE --model M [--annotation A | --auto] [--patch-cell 2] [--json]
                         primitives from a fitted model's log: segments labelled by an annotation
                         (default the log's own) or by clustering (--auto), elements moved to each
                         object's frame; prints {primitives, segments, labels, byClass, skipped, ids}
  thicket primitives mesh --project FILE [--annotation A] [--seed N] [--variants N] [--json]
                         the mesh baseline library (trunk + crown trees, shrub blobs)
  thicket primitives list --project FILE [--json]
  thicket fit            --project FILE --log L [--seed N] [--param key=value ...] [--name NAME] [--json]
                         fit a hybrid model (ground triangles + ellipsoids) and the voxel model to a
                         drive log; prints {model, ellipsoids, triangles, voxels, groundVariance, seconds}
                         --tune first tunes θ with Nelder–Mead on a slice of the log (J = mean packet
                         error + 2(1 − F1)): [--tune-params a,b] [--tune-seconds 10] [--tune-start 0]
                         [--tune-evaluations 30]; the result adds {tuning}
  thicket fit list       --project FILE [--json]
  thicket simulate       --project FILE (--scene S | --model M | --neighbour-log L) --profile ID [--mode hybrid|voxel|physics|mesh]
                         [--seed N] [--seconds T] [--trail [--speed V] | --speed V --start x,y,z --heading DEG | --poses-from LOG]
                         [--mount x,y,z,roll,pitch,yaw | --extrinsic FILE [--extrinsic-inverse]]
                         [--batch-packets N] [--range-sampler along-ray|gaussian-point] [--range-noise SIGMA_M]
                         [--neighbour-radius M] [--neighbour-leave-out S] [--workers N] [--json]
                         --neighbour-log: the neighbour simulator (replays log L's hits; d⊥ < M, default 0.1;
                         --neighbour-leave-out S: not the hits logged within S s of the ray, to replay L
                         along its own poses held out);
                         --range-noise: σ of mesh/physics range noise (the mesh baseline: 0.005);
                         --mount / --extrinsic (as for import): the sensor at that pose on the vehicle instead of
                         the profile's mount; with --poses-from LOG it follows LOG's vehicle (LOG's own import
                         mount undone), so a second sensor can be simulated along the first one's drive
  thicket simulate       --project FILE (--scene S | --model M | --neighbour-log L) --rays-from LOG [--profile ID]
                         [--mode M] [--seed N] [--json]
                         exactly LOG's rays, whatever its format and packets: every logged pulse (misses
                         included) fired from its packet's pose in its direction, with its firing time and
                         ring; the run keeps LOG's packets (evaluate then pairs it with LOG ray by ray);
                         the profile defaults to LOG's; not with --mount, --extrinsic, --poses-from, --trail;
                         prints {run, packets, rays, pulses, hits, misses, skippedNaN, durationS, raysFromLogId}
  thicket evaluate       --project FILE --real LOG --sim RUN [--region SPEC ...] [--exclude-body [--body L,W,H[,cx,cy,cz]]]
                         [--range-bin M] [--pairing time|index|rays] [--param key=value ...] [--workers N] [--json]
                         a simulation run against a real drive log: each real ray with the simulated ray of
                         its direction fired nearest in time, across packet boundaries (a scan pairs with a
                         revolution in any packets); ray for ray, checked, for a run made with --rays-from
                         LOG; prints {packets, packetError, precision, recall, f1, pointCloudError,
                         evaluation, unpairedRays, unpairedPackets, pairedRays, pairedFraction, pairing,
                         warnings, region, perClass, byRange, seconds}, and for static scans
                         {bhattacharyya, histogramMatch}; warnings (under half of a side's rays paired, or
                         the times barely overlap) also go to stderr
                         --region: comma-separated terms, all must hold: azimuth=FROM:TO (deg, sensor frame,
                         FROM > TO wraps), exclude-azimuth=FROM:TO (a window left out, e.g. where the
                         sensor's mount blinds it; repeat to leave out several), range=MIN:MAX (m),
                         box=cx,cy,cz,l,w,h,yawDeg (world frame; repeat for a union); a region that
                         leaves nothing is an error
                         --exclude-body: leave out returns inside the vehicle, --body L,W,H[,cx,cy,cz] (m,
                         sensor frame; default 4.5,2,2 centred under the sensor, top 0.1 m above it)
                         --range-bin: width of byRange's bins (m, default 10); perClass where LOG has labels
                         --param: directionToleranceDeg, timeToleranceS, timeOffsetS, targetCap, queryCap,
                         seed, minOverlap, rangeBinM, azimuthBinDeg, …
  thicket evaluate list  --project FILE [--json]
  thicket risk           --project FILE --real LOG --sim RUN --application scan-matching|obstacles|ground
                         [--samples N] [--seed N] [--max-pairs N] [--json]
                         application-level risk: the application's objective J on LOG and on RUN for N
                         draws of its parameters α (default 50); prints {application, risk, samples:
                         [{alpha, jReal, jSim, loss}], bestAlphaSim, jRealAtBestAlphaSim, …}; scan
                         matching registers up to --max-pairs consecutive revolution pairs (default 10)
  thicket experiment     --project FILE --train LOG --test LOG [--profile ID] [--seed N] [--fit-param key=value ...]
                         [--region SPEC ...] [--exclude-body [--body L,W,H]] [--param key=value ...]
                         [--risk-samples N] [--json]
                         the real-data experiment: fit LOG --train, build every simulator from it (hybrid
                         and voxel models, mesh primitives on its segments, neighbour replay of it),
                         simulate the rays of LOG --test with each and evaluate them (--fit-param: θ of
                         the fit, --param: evaluation parameters); prints {table: [{simulator, precision,
                         recall, f1, pointCloudError, packetError, run, evaluation}], selfCheck: {…}}
                         (selfCheck: the hybrid model re-simulating its own training log)
  thicket study          --project FILE --scene S --profiles lms291,vlp16,hdl32e,hdl64e [--mounts FILE]
                         [--seconds T] [--loop closed|open] [--mode physics|hybrid] [--seed N]
                         [--start x,y] [--goal x,y] [--report FILE.html] [--workers N] [--json]
                         costmaps and A* for each sensor × mount; --mounts: JSON list of
                         {height, pitchDeg, yawDeg, x, y}, or an object of lists (a sweep)
  thicket export         --project FILE (--run ID | --log ID) --format ${EXPORT_FORMATS.join('|')} --out PATH [--force] [--json]
                         an existing file (a non-empty KITTI folder) is replaced only with --force
                         [--las-version 1.2|1.4]: LAS 1.2 point format 3 for readers that refuse 1.4
                         [--mcap-messages revolution|packet]: one PointCloud2 a revolution (default) or a packet
  thicket profile import FILE [--project FILE] [--id ID] [--name NAME] [--model M] [--json]
                         a calibration (ROS velodyne .yaml, Velodyne db.xml, Ouster .json) or a
                         Thicket profile .json → a profile, saved in the project when given;
                         --json prints it in the profile file form (degrees, ms, mrad);
                         the sensor model is detected from the file (laser count, elevations,
                         Ouster prod_line and lidar_mode); --model states it (also on import
                         --calibration): vlp16 vlp32c hdl32e hdl64e vls128 os0-32 … os2-128,
                         Ouster ids optionally with -512|-1024|-2048 columns (e.g. os1-64-2048)
  thicket profile list   [--project FILE] [--json]
                         built-ins: vlp16 vlp32c hdl32e hdl64e vls128, os0|os1|os2-32|64|128
                         (1024×10; -512 and -2048 for the other column modes), lms291-*
  thicket profile show ID [--project FILE] [--json]
  thicket validate grass|mixed-pixel [--seed N] [--samples N] [--profile ID] [--json]
  thicket bench         [--only foundation,engine,realtime,import,fit,host,label-select] [--packets N] [--workers N] [--json]
                         fit: simulates an N-packet (default 100,000) HDL-64E log, then times its fit
                         host: the host's longest event-loop stall per step over the demo
                         [--small] [--seconds T] [--project FILE to reuse or fill]
                         label-select: the Label page's box, lasso and brush over N points [--points N]
                         (default 2,000,000; goal ≤ 100 ms a selection)
  thicket --version
  thicket --help

Options:
  --project FILE   the project (a .thicket SQLite file)
  --json           print exactly one JSON object on stdout (progress stays on stderr)
  --quiet          no progress on stderr
  --workers N      worker threads for heavy jobs (default: cores - 1)

Exit status: 0 on success; 1 when the command fails; 2 on a usage error.
`;
