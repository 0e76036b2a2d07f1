import type { CountryRef, RegionRef } from '@tinkerdesk/contracts/web';
import { useEffect, useState } from 'react';
import { getReference } from '../api';

/** A reference list once loaded (empty while loading or when it cannot be had: the fields stay usable). */
export function useReference<T>(load: () => Promise<T[]>): T[] {
  const [items, setItems] = useState<T[]>([]);
  useEffect(() => {
    let live = true;
    load().then(
      (list) => live && setItems(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [load]);
  return items;
}

const loadCountries = () => getReference('countries') as Promise<CountryRef[]>;
const loadUsStates = () => getReference('us-states') as Promise<RegionRef[]>;
const loadCaProvinces = () => getReference('ca-provinces') as Promise<RegionRef[]>;

/** The country of an address, from the platform's ISO 3166 list (two-letter codes). */
export function CountrySelect({ id, value, onChange }: { id: string; value: string; onChange: (code: string) => void }) {
  const countries = useReference(loadCountries);
  if (countries.length === 0) {
    return <input id={id} value={value} maxLength={2} autoComplete="country" onChange={(e) => onChange(e.target.value.toUpperCase())} />;
  }
  return (
    <select id={id} value={value} autoComplete="country" onChange={(e) => onChange(e.target.value)}>
      {countries.map((c) => (
        <option key={c['alpha-2']} value={c['alpha-2']}>
          {c.name}
        </option>
      ))}
    </select>
  );
}

/** State or province: a list for the US (states, DC, territories, military) and Canada, free text elsewhere. */
export function RegionField({
  id,
  country,
  value,
  onChange,
}: {
  id: string;
  country: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const us = useReference(loadUsStates);
  const ca = useReference(loadCaProvinces);
  const list = country === 'US' ? us : country === 'CA' ? ca : [];
  if (list.length === 0) {
    return <input id={id} value={value} autoComplete="address-level1" onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <select id={id} value={value} autoComplete="address-level1" onChange={(e) => onChange(e.target.value)}>
      <option value="">Choose…</option>
      {list.map((r) => (
        <option key={r.abbreviation} value={r.abbreviation}>
          {r.name} ({r.abbreviation})
        </option>
      ))}
    </select>
  );
}
