// named routes with namespaces, `reverse`, and `.json` style format suffixes.
export {
  FORMAT_SUFFIX_KWARG,
  type FormatSuffixOptions,
  formatSuffixPattern,
  formatSuffixPatterns,
} from './format-suffixes.js';
export { plainReverse, preserveBuiltinQueryParams, type ReverseOptions, reverse } from './reverse.js';
export { NoReverseMatch, type Route, type RouteHandler, type RouteMatch, Routes } from './routes.js';
