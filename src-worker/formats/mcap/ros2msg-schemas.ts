/**
 * ros2msg schema texts for the messages Thicket writes to MCAP: the type's .msg definition
 * followed by each type it uses, separated by a line of 80 '=' and `MSG: pkg/Type`, the form
 * rosbag2's MCAP plugin writes and Foxglove Studio, Lichtblick and `ros2 bag play` read.
 */
const SEP = '='.repeat(80);
const dep = (name: string, body: string): string => `${SEP}\nMSG: ${name}\n${body}`;

const TIME = 'int32 sec\nuint32 nanosec\n';
const HEADER = 'builtin_interfaces/Time stamp\nstring frame_id\n';
const POINT_FIELD =
  'uint8 INT8    = 1\nuint8 UINT8   = 2\nuint8 INT16   = 3\nuint8 UINT16  = 4\n' +
  'uint8 INT32   = 5\nuint8 UINT32  = 6\nuint8 FLOAT32 = 7\nuint8 FLOAT64 = 8\n' +
  'string name\nuint32 offset\nuint8 datatype\nuint32 count\n';

export const POINT_CLOUD2_SCHEMA =
  'std_msgs/Header header\nuint32 height\nuint32 width\nPointField[] fields\nbool is_bigendian\n' +
  'uint32 point_step\nuint32 row_step\nuint8[] data\nbool is_dense\n' +
  dep('std_msgs/Header', HEADER) +
  dep('builtin_interfaces/Time', TIME) +
  dep('sensor_msgs/PointField', POINT_FIELD);

export const TF_MESSAGE_SCHEMA =
  'geometry_msgs/TransformStamped[] transforms\n' +
  dep('geometry_msgs/TransformStamped', 'std_msgs/Header header\nstring child_frame_id\nTransform transform\n') +
  dep('std_msgs/Header', HEADER) +
  dep('builtin_interfaces/Time', TIME) +
  dep('geometry_msgs/Transform', 'Vector3 translation\nQuaternion rotation\n') +
  dep('geometry_msgs/Vector3', 'float64 x\nfloat64 y\nfloat64 z\n') +
  dep('geometry_msgs/Quaternion', 'float64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n');
