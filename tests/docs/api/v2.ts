// What the README's openapi-fetch example imports as `./api/v2.js`: the demo's generated v2 types.
export type { components, operations, paths } from '../../../examples/demo/src/generated/openapi-v2.js';
