/** The process's time zone when the test file started (`undefined`: the system's). */
const initial = process.env.TZ;

/**
 * Puts back the process's time zone after a test set `process.env.TZ` to read dates in another
 * zone; register it with `afterEach` (or `afterAll`).
 *
 * @example
 * afterEach(restoreProcessZone);
 * process.env.TZ = 'Asia/Kathmandu';
 */
export function restoreProcessZone(): void {
  if (initial === undefined) delete process.env.TZ;
  else process.env.TZ = initial;
}
