// The component tests import .vue files; vitest compiles them (the Vue plugin), and this tells
// `tsc -p tsconfig.node.json` what they are. The renderer itself is checked by vue-tsc.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<Record<string, unknown>, Record<string, unknown>, unknown>;
  export default component;
}
