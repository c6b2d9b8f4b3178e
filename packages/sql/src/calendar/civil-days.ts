// The proleptic Gregorian calendar in integer arithmetic, shared by every dialect's date code.

/** The largest time value a `Date` holds, in milliseconds either side of the epoch (275760-09-13). */
export const MAX_TIME = 8.64e15;

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (astronomical year: 1 BC is 0).
 *
 * @example
 * daysFromCivil(1970, 1, 2) // 1
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/**
 * The proleptic Gregorian date `[year, month, day]` of a day number (`daysFromCivil`'s inverse).
 *
 * @example
 * civilFromDays(1) // [1970, 1, 2]
 */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, doy - Math.floor((153 * mp + 2) / 5) + 1];
}

/**
 * The days of `month` (1-12) in `year` of the proleptic Gregorian calendar (astronomical years).
 *
 * @example
 * daysIn(2000, 2) // 29
 */
export function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
