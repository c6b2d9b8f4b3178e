export { type ArrayQueryOptions, fromArray } from './array-adapter.js';
