import { NotFound } from '../errors.js';

/** The 404 for a page that starts beyond the configured `maxOffset`. */
export function offsetTooLarge(offset: number, maxOffset: number): NotFound {
  return new NotFound(`Offset ${offset} is beyond the maximum offset of ${maxOffset}.`);
}
