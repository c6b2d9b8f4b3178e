// named routes with namespaces, and `reverse`.
export { plainReverse, preserveBuiltinQueryParams, type ReverseOptions, reverse } from './reverse.js';
export { NoReverseMatch, type Route, type RouteHandler, type RouteMatch, Routes } from './routes.js';
