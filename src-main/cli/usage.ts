export const USAGE = `thicket — off-road lidar simulation, headless

Usage:
  thicket project create --project FILE [--json]
  thicket project info   --project FILE [--json]
  thicket demo           --project FILE [--seed N] [--small] [--json]
                         the demo project: reference site (scene + ground truth), training and
                         test drives of an HDL-32E (drive logs); the file is created when absent
  thicket import FILE    --project FILE [--format F] [--profile ID] [--calibration FILE] [--poses FILE]
                         [--no-misses] [--name NAME] [--json]
                         F: velodyne-pcap ouster-pcap ros2-db3 mcap kitti-bin pcd ply las
  thicket scene generate --project FILE [--kind offroad|hybrid-strip|cylinder-stand|rod-bench]
                         [--seed N] [--param key=value ...] [--name NAME] [--json]
  thicket scene list     --project FILE [--json]
  thicket fit            --project FILE --log L [--seed N] [--param key=value ...] [--name NAME] [--json]
                         fit a hybrid model (ground triangles + ellipsoids) and the voxel model to a
                         drive log; prints {model, ellipsoids, triangles, voxels, groundVariance, seconds}
  thicket fit list       --project FILE [--json]
  thicket simulate       --project FILE (--scene S | --model M) --profile ID [--mode hybrid|voxel|physics|mesh]
                         [--seed N] [--seconds T] [--trail [--speed V] | --speed V --start x,y,z --heading DEG | --poses-from LOG]
                         [--batch-packets N] [--range-sampler along-ray|gaussian-point] [--workers N] [--json]
  thicket study          --project FILE --scene S --profiles lms291,vlp16,hdl32e,hdl64e [--mounts FILE]
                         [--seconds T] [--loop closed|open] [--mode physics|hybrid] [--seed N]
                         [--start x,y] [--goal x,y] [--report FILE.html] [--workers N] [--json]
                         costmaps and A* for each sensor × mount; --mounts: JSON list of
                         {height, pitchDeg, yawDeg, x, y}, or an object of lists (a sweep)
  thicket export         --project FILE (--run ID | --log ID) --format pcd|ply|las|kitti|mcap --out PATH [--json]
  thicket profile import FILE [--project FILE] [--id ID] [--name NAME] [--json]
                         a calibration (ROS velodyne .yaml, Velodyne db.xml, Ouster .json) or a
                         Thicket profile .json → a profile, saved in the project when given;
                         --json prints it in the profile file form (degrees, ms, mrad)
  thicket profile list   [--project FILE] [--json]
  thicket profile show ID [--project FILE] [--json]
  thicket validate grass|mixed-pixel [--seed N] [--samples N] [--profile ID] [--json]
  thicket bench         [--only foundation,engine,realtime,import,fit] [--packets N] [--workers N] [--json]
                         fit: simulates an N-packet (default 100,000) HDL-64E log, then times its fit
  thicket --version
  thicket --help

Options:
  --project FILE   the project (a .thicket SQLite file)
  --json           print exactly one JSON object on stdout (progress stays on stderr)
  --quiet          no progress on stderr
  --workers N      worker threads for heavy jobs (default: cores - 1)

Exit status: 0 on success; 1 when the command fails; 2 on a usage error.
`;
