// Lint, including the import table of the layering rule (docs/design.md, "Layers"):
//   src-common/   the shared vocabulary (classes, modes, formats, units, profile and metric types,
//                 the log data model, colour maps): imports nothing of the other three, no Node
//   src-worker/   imports nothing of src-main or src-renderer; no electron/vue/babylon/sqlite;
//                 Node I/O (fs, worker_threads, ...) only in src-worker/tasks/, which may also open
//                 users' bag files (ROS 2 .db3) read-only with better-sqlite3 — never the project store
//   src-main/     may import src-common and, of src-worker, only the task entry points' types (tasks/);
//                 never src-renderer; `electron` only in
//                 src-main/electron/; better-sqlite3 (SQL) only in src-main/store/; src-main/api/ is
//                 environment-neutral (zod and src-common only)
//   src-renderer/ may import src-main/api/ (the contract and its wire codec) and src-common/; no Node modules
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import globals from 'globals';

const NODE_BUILTINS = [
  'fs', 'fs/promises', 'path', 'os', 'child_process', 'worker_threads', 'net', 'http', 'https',
  'crypto', 'stream', 'url', 'events', 'util', 'zlib', 'readline', 'module', 'process', 'buffer',
];
// `node:*` as a pattern; bare builtin names as exact `paths` (a gitignore-style pattern such as
// 'buffer' would also match deep package paths like '@babylonjs/core/Buffers/buffer').
const NODE = Symbol('node builtins');
const nodeModules = (message) => [{ group: ['node:*'], message }, { [NODE]: message }];

const layer = (patterns, paths = []) => {
  const builtins = patterns.filter((p) => p[NODE]).map((p) => p[NODE]);
  const plain = patterns.filter((p) => !p[NODE]);
  const builtinPaths = builtins.flatMap((message) => NODE_BUILTINS.map((name) => ({ name, message })));
  return { '@typescript-eslint/no-restricted-imports': ['error', { patterns: plain, paths: [...paths, ...builtinPaths] }] };
};

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'dist/**', 'test-results/**', '.vitest-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/attributes-order': 'off',
      'vue/first-attribute-linebreak': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/html-indent': 'off',
      'vue/multiline-html-element-content-newline': 'off',
    },
  },
  // ---- the layering rule ----
  {
    files: ['src-common/**/*.ts'],
    rules: layer(
      [
        { group: ['**/src-main/**', '**/src-renderer/**', '**/src-worker/**'], message: 'src-common is the shared vocabulary: it imports nothing of the other layers (docs/design.md, "Layers").' },
        { group: ['electron', 'vue', '@babylonjs/*', 'better-sqlite3', 'piscina', 'ws', 'pinia'], message: 'src-common runs everywhere: no app, UI or storage libraries.' },
        ...nodeModules('src-common runs in the browser too: no Node modules.'),
      ],
      [{ name: 'electron', message: 'src-common runs everywhere.' }],
    ),
  },
  {
    files: ['src-worker/**/*.ts'],
    ignores: ['src-worker/tasks/**'],
    rules: layer(
      [
        { group: ['**/src-main/**', '**/src-renderer/**'], message: 'src-worker imports nothing of src-main or src-renderer (docs/design.md, "Layers").' },
        { group: ['electron', 'vue', '@babylonjs/*', 'better-sqlite3', 'piscina', 'ws', 'pinia'], message: 'src-worker is pure compute: no app, UI or storage libraries.' },
        ...nodeModules('Only src-worker/tasks/ (the worker entry points) may touch Node I/O.'),
      ],
    ),
  },
  {
    files: ['src-worker/tasks/**/*.ts'],
    rules: layer([
      { group: ['**/src-main/**', '**/src-renderer/**'], message: 'src-worker imports nothing of src-main or src-renderer (docs/design.md, "Layers").' },
      // better-sqlite3 is allowed here: tasks read users' ROS 2 bags (.db3 are SQLite) read-only.
      { group: ['electron', 'vue', '@babylonjs/*', 'ws', 'pinia'], message: 'worker tasks do compute and file reading, not UI or storage.' },
    ]),
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/electron/**', 'src-main/store/**', 'src-main/api/**'],
    rules: layer(
      [
        { group: ['**/src-renderer/**'], message: 'src-main never imports the renderer.' },
        { group: ['vue', '@babylonjs/*', 'pinia'], message: 'src-main has no UI code.' },
        { group: ['better-sqlite3'], message: 'SQL lives only in src-main/store/.' },
        { group: ['**/src-worker/**', '!**/src-worker/tasks', '!**/src-worker/tasks/**'], message: 'The host orchestrates: of the worker layer it imports only the task entry points (src-worker/tasks/: their input and output types); shared types and constants live in src-common/ (docs/design.md, "Layers").' },
        { group: ['**/src-worker/tasks', '**/src-worker/tasks/**'], allowTypeImports: true, message: 'The host imports only the types of worker tasks (their inputs and outputs); shared values live in src-common/, host helpers in src-main/ (docs/design.md, "Layers").' },
      ],
      [{ name: 'electron', message: 'Only src-main/electron/ may import electron (docs/design.md, "Layers").' }],
    ),
  },
  {
    files: ['src-main/store/**/*.ts'],
    rules: layer(
      [
        { group: ['**/src-renderer/**', 'vue', '@babylonjs/*', 'pinia'], message: 'The store is Node-only data access.' },
        { group: ['**/src-worker/**'], message: 'The store reads and writes rows: it imports nothing of the worker layer (the data model is in src-common/).' },
      ],
      [{ name: 'electron', message: 'Only src-main/electron/ may import electron (docs/design.md, "Layers").' }],
    ),
  },
  {
    files: ['src-main/electron/**/*.ts'],
    rules: layer([
        { group: ['**/src-worker/**', '!**/src-worker/tasks', '!**/src-worker/tasks/**'], message: 'The host orchestrates: of the worker layer it imports only the task entry points (src-worker/tasks/: their input and output types); shared types and constants live in src-common/ (docs/design.md, "Layers").' },
        { group: ['**/src-worker/tasks', '**/src-worker/tasks/**'], allowTypeImports: true, message: 'The host imports only the types of worker tasks (their inputs and outputs); shared values live in src-common/, host helpers in src-main/ (docs/design.md, "Layers").' },
      { group: ['**/src-renderer/**', 'vue', '@babylonjs/*', 'pinia'], message: 'src-main never imports the renderer.' },
      { group: ['better-sqlite3'], message: 'SQL lives only in src-main/store/.' },
    ]),
  },
  {
    files: ['src-main/api/**/*.ts'],
    rules: layer(
      [
        { group: ['**/src-renderer/**', '**/src-worker/**'], message: 'src-main/api is the environment-neutral contract: it imports only zod, src-common and itself.' },
        { regex: '^\\.\\./(?!\\.\\./src-common/)', message: 'src-main/api is the environment-neutral contract: it imports only zod, src-common and itself.' },
        { group: ['vue', '@babylonjs/*', 'pinia', 'better-sqlite3', 'piscina', 'ws'], message: 'src-main/api is environment-neutral.' },
        ...nodeModules('src-main/api runs in the browser too: no Node modules.'),
      ],
      [{ name: 'electron', message: 'src-main/api is environment-neutral.' }],
    ),
  },
  {
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.vue'],
    rules: layer(
      [
        {
          group: ['**/src-main/*', '!**/src-main/api', '**/src-main/*/**', '!**/src-main/api/**'],
          message: 'The renderer may import only src-main/api/ (the contract) and src-common/, never other host code.',
        },
        { group: ['**/src-worker/**'], message: 'The renderer never imports worker compute; ask the host through the API.' },
        { group: ['better-sqlite3', 'piscina', 'ws'], message: 'The renderer has no Node modules.' },
        ...nodeModules('The renderer runs in a browser: no Node modules.'),
      ],
      [{ name: 'electron', message: 'The renderer reaches Electron only through the preload bridge (window.thicketBridge).' }],
    ),
  },
);
