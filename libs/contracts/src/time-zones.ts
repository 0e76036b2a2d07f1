import { rawTimeZones, timeZonesNames, tzdbVersion } from '@vvo/tzdb';

/**
 * IANA time zone names as the current tz database has them (@vvo/tzdb follows each IANA release), with
 * the old names that are now links to them: Asia/Calcutta is Asia/Kolkata, Europe/Kiev is Europe/Kyiv,
 * Asia/Saigon is Asia/Ho_Chi_Minh, US/Eastern is America/New_York. Browsers (through ICU/CLDR) still
 * report several old names, so both are accepted and the current one is kept and shown.
 */

/** UTC's other names in the tz database (links to Etc/UTC, and GMT, which has UTC's rules). */
const UTC_NAMES = [
  'UTC',
  'Etc/UTC',
  'Etc/UCT',
  'UCT',
  'Etc/Universal',
  'Universal',
  'Etc/Zulu',
  'Zulu',
  'GMT',
  'Etc/GMT',
  'Etc/GMT0',
  'Etc/GMT+0',
  'Etc/GMT-0',
  'GMT0',
  'GMT+0',
  'GMT-0',
  'Greenwich',
  'Etc/Greenwich',
];

/** The version of the tz database the list follows, e.g. 2025b. */
export const TIME_ZONE_DATA_VERSION: string = tzdbVersion;

/** Every current zone name, UTC first, then in alphabetical order. */
export const TIME_ZONES: readonly string[] = ['UTC', ...[...timeZonesNames].sort()];

/** Lower-case name (current or old) → current name. */
const CANONICAL = new Map<string, string>();
for (const name of TIME_ZONES) CANONICAL.set(name.toLowerCase(), name);
for (const name of UTC_NAMES) CANONICAL.set(name.toLowerCase(), 'UTC');
for (const zone of rawTimeZones) {
  // A group holds the zone, the old names that link to it, and zones that keep the same time today;
  // only names that are not current zones themselves are old names of this one.
  for (const name of zone.group) if (!CANONICAL.has(name.toLowerCase())) CANONICAL.set(name.toLowerCase(), zone.name);
}

/**
 * The current name of a time zone given by its current or an old name, in any letter case; undefined
 * for a name that is not a time zone. The fixed offsets Etc/GMT-14 … Etc/GMT+12 are zones too and stay
 * as they are.
 */
export function canonicalTimeZone(name: string): string | undefined {
  const known = CANONICAL.get(name.trim().toLowerCase());
  if (known) return known;
  const offset = /^etc\/gmt([+-])(\d{1,2})$/i.exec(name.trim());
  if (offset) {
    const hours = Number(offset[2]);
    if (offset[1] === '+' ? hours <= 12 : hours <= 14) return `Etc/GMT${offset[1]}${hours}`;
  }
  return undefined;
}
