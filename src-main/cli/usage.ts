export const USAGE = `thicket — off-road lidar simulation, headless

Usage:
  thicket project create --project FILE [--json]
  thicket project info   --project FILE [--json]
  thicket import FILE    --project FILE [--format kitti-bin|pcd] [--name NAME] [--json]
  thicket bench         [--workers N] [--json]
  thicket --version
  thicket --help

Options:
  --project FILE   the project (a .thicket SQLite file)
  --json           print exactly one JSON object on stdout (progress stays on stderr)
  --quiet          no progress on stderr
  --workers N      worker threads for heavy jobs (default: cores - 1)

Exit status: 0 on success; 1 when the command fails; 2 on a usage error.
`;
