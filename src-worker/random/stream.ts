/** The seeded random streams live in src-common (the renderer's scene editor scatters with them too). */
export { RandomStream } from '../../src-common/random-stream';
