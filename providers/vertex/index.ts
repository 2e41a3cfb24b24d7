/** The `vertex` provider kind. */
export { vertexKind } from './vertex-kind.js';
export { createVertexAdapter } from './create-vertex-adapter.js';
