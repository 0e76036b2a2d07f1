import { ApiError } from '../../../shared/api';

/** Who made an app and its links, as the consent page shows them: the same fields at registration and in Edit. */
export const DETAIL_FIELDS = [
  ['developerName', 'Made by (a person or a company)'],
  ['developerContact', 'Contact for users (an email address or a URL)'],
  ['homepageUrl', 'Website (http or https)'],
  ['privacyUrl', 'Privacy policy (http or https)'],
  ['termsUrl', 'Terms (http or https)'],
] as const;
export type DetailKey = (typeof DETAIL_FIELDS)[number][0];
export type AppFieldKey = 'name' | 'redirectUris' | DetailKey;

/** The longest text each field takes (the API's limits). */
export function maxLengthOf(key: 'name' | DetailKey): number {
  return key === 'name' || key === 'developerName' ? 80 : key === 'developerContact' ? 200 : 2000;
}

export function inputTypeOf(key: 'name' | DetailKey): 'url' | 'text' {
  return key.endsWith('Url') ? 'url' : 'text';
}

/** The field a server refusal names (its detail starts with the field's name), so the error shows on it. */
export function fieldOf(error: unknown): AppFieldKey | undefined {
  if (!(error instanceof ApiError) || !error.detail) return undefined;
  const keys: AppFieldKey[] = ['name', 'redirectUris', ...DETAIL_FIELDS.map(([k]) => k)];
  return keys.find((k) => error.detail!.startsWith(k));
}
