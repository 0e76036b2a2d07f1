/**
 * Time zone names for the profile: the current IANA names (from the tz database through
 * @tinkerdesk/contracts/time-zones, loaded with the account page's first use: the list is ~90 kB), with
 * old names (Asia/Calcutta, Europe/Kiev) read as their current ones (Asia/Kolkata, Europe/Kyiv).
 * Browsers report several old names: Intl's own list and resolvedOptions() follow CLDR, not IANA.
 */
export interface TimeZoneData {
  /** Every current zone, UTC first. */
  zones: readonly string[];
  /** The current name of a zone given by any of its names; undefined when it is not a zone. */
  canonical(name: string): string | undefined;
}

export function loadTimeZones(): Promise<TimeZoneData> {
  return import('@tinkerdesk/contracts/time-zones').then(({ TIME_ZONES, canonicalTimeZone }) => ({
    zones: TIME_ZONES,
    canonical: canonicalTimeZone,
  }));
}

/** What this module uses of Temporal, where the browser has it (Chromium 144 on; not yet in TypeScript's lib). */
interface TemporalNow {
  Now: { timeZoneId(): string };
}

/**
 * The browser's own time zone as it reports it (e.g. Europe/Berlin, or an old name such as Asia/Calcutta).
 * Temporal's answer comes first where there is one: a page's first `Intl.DateTimeFormat` loads the locale's
 * data (27 ms in this machine's Chromium, about 110 ms on a phone four times slower, one long task of the
 * account page's load), `Temporal.Now.timeZoneId()` reads the zone alone (0.1 ms).
 */
export function browserTimeZone(): string {
  const temporal = (globalThis as { Temporal?: TemporalNow }).Temporal;
  try {
    const zone = temporal?.Now.timeZoneId();
    if (zone) return zone;
  } catch {
    // A partial Temporal: Intl answers.
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
