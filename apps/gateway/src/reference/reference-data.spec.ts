import { describe, expect, it } from '@jest/globals';
import type { CountryRef, LocaleRef, RegionRef, ReminderDayRef, ShippingServiceRef, TimeZoneRef } from '@tinkerdesk/contracts';
import { referenceData } from './reference-data.js';

const items = <T>(name: Parameters<typeof referenceData>[0]) => referenceData(name).items as T[];

describe('reference data (docs/api.md "Reference data"), complete', () => {
  it('countries: all 249 of ISO 3166-1 with alpha-2, alpha-3, numeric code, ISO 3166-2 code and UN M49 region codes', () => {
    const list = items<CountryRef>('countries');
    expect(list).toHaveLength(249);
    expect(new Set(list.map((c) => c['alpha-2'])).size).toBe(249);
    expect(list.find((c) => c['alpha-2'] === 'US')).toEqual({
      name: 'United States of America',
      'alpha-2': 'US',
      'alpha-3': 'USA',
      'country-code': '840',
      'iso_3166-2': 'ISO 3166-2:US',
      'region-code': '019',
      'sub-region-code': '021',
    });
    expect(list.find((c) => c['alpha-2'] === 'DE')).toMatchObject({
      'region-code': '150',
      'sub-region-code': '155',
      'country-code': '276',
    });
    expect(list.find((c) => c['alpha-2'] === 'BR')).toMatchObject({ 'region-code': '019', 'sub-region-code': '419' });
    expect(list.find((c) => c['alpha-2'] === 'AQ')).toMatchObject({ 'region-code': '', 'sub-region-code': '' });
    for (const c of list) {
      expect(c['alpha-3']).toMatch(/^[A-Z]{3}$/);
      expect(c['country-code']).toMatch(/^\d{3}$/);
    }
    // Every country lies in a UN M49 region but Antarctica (none) and Taiwan (M49 does not list it).
    expect(list.filter((c) => c['region-code'] === '').map((c) => c['alpha-2'])).toEqual(['AQ', 'TW']);
  });

  it('US: the 50 states, DC, the 6 territories, and the 3 military codes, with abbreviations', () => {
    const list = items<RegionRef>('us-states');
    expect(list.filter((s) => s.kind === 'state')).toHaveLength(50);
    expect(list.filter((s) => s.kind === 'district').map((s) => s.abbreviation)).toEqual(['DC']);
    expect(
      list
        .filter((s) => s.kind === 'territory')
        .map((s) => s.abbreviation)
        .sort(),
    ).toEqual(['AS', 'GU', 'MP', 'PR', 'UM', 'VI']);
    expect(list.filter((s) => s.kind === 'military').map((s) => s.abbreviation)).toEqual(['AA', 'AE', 'AP']);
    expect(list.find((s) => s.abbreviation === 'CA')).toEqual({ abbreviation: 'CA', name: 'California', code: 'US-CA', kind: 'state' });
  });

  it('Canada: the 13 provinces and territories', () => {
    const list = items<RegionRef>('ca-provinces');
    expect(list).toHaveLength(13);
    expect(list.map((p) => p.abbreviation).sort()).toEqual(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);
  });

  it('reminder days: first, 2nd … 28th, last, each with its index', () => {
    const list = items<ReminderDayRef>('reminder-days');
    expect(list).toHaveLength(29);
    expect(list[0]).toEqual({ index: 1, value: 'first', label: 'First day of the month' });
    expect(list.slice(1, 4).map((d) => d.value)).toEqual(['2nd', '3rd', '4th']);
    expect(list.find((d) => d.index === 21)?.value).toBe('21st');
    expect(list.find((d) => d.index === 22)?.value).toBe('22nd');
    expect(list.find((d) => d.index === 11)?.value).toBe('11th');
    expect(list.at(-1)).toEqual({ index: -1, value: 'last', label: 'Last day of the month' });
  });

  it('time zones: every IANA zone with its offset now', () => {
    const list = items<TimeZoneRef>('time-zones');
    expect(list.length).toBeGreaterThan(300);
    expect(list.find((z) => z.name === 'Asia/Kolkata')?.offset).toBe(330);
    expect(list.find((z) => z.name === 'UTC')?.offset).toBe(0);
  });

  it('locales: lang, locale and label from CLDR', () => {
    const list = items<LocaleRef>('locales');
    expect(list.length).toBeGreaterThan(500);
    expect(list.find((l) => l.locale === 'en-GB')).toEqual({ lang: 'en', locale: 'en-GB', label: 'British English' });
    expect(list.find((l) => l.locale === 'fr-CA')).toMatchObject({ lang: 'fr' });
  });

  it('shipping services: the 10 of SHIPPING_SERVICES with labels and the allowed options', () => {
    const list = items<ShippingServiceRef>('shipping-services');
    expect(list.map((s) => s.value)).toEqual([
      'FEDEX_OVERNIGHT',
      'USPS_PRIORITY_EXPRESS',
      'USPS_PRIORITY',
      'USPS_CERTIFIED',
      'USPS_CERTIFIED_RECEIPT',
      'USPS_CERTIFIED_PHYSICAL_RECEIPT',
      'USPS_FIRST_CLASS',
      'USPS_POSTCARD',
      'USPS_NOTECARD',
      'UPS_NEXT_DAY_AIR',
    ]);
    expect(list[0]?.allowedOptions.map((o) => o.value)).toEqual(['singlesided', 'color', 'return_envelope', 'flat', 'livestamp']);
  });
});
