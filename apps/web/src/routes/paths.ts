/** Every route of the site (docs/web-app.md#routes) in one place. Tool routes live in the tool registry. */
export const PATHS = {
  root: '/',
  home: '/home',
  help: '/help',
  pricing: '/pricing',
  contact: '/contact',
  about: '/about',
  faq: '/faq',
  terms: '/terms',
  privacy: '/privacy',
  security: '/security',
  search: '/search',
  login: '/login',
  register: '/login#!/register',
  signIn: '/login#!/login',
  resetRequest: '/login#!/reset',
  oauthCallback: '/login/oauth/:provider',
  /** An app's OAuth authorization request lands here (OAUTH_CONSENT_PATH/{interaction}). */
  oauthConsent: '/oauth2/consent/:interaction',
  account: '/account',
  billing: '/billing',
  hardware: '/integrations/hardware/',
  tools: '/tools/',
  notFound: '/404',
  apiDocs: '/v1/docs',
  openApi: '/v1/openapi.json',
} as const;

/** A same-site path to return to after signing in, or undefined when the value is not one. */
export function safeNext(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || value.length > 500) return undefined;
  return value;
}

/** Sign-in that comes back to `next` afterwards. */
export const signInPath = (next?: string): string =>
  safeNext(next) ? `${PATHS.login}?next=${encodeURIComponent(next!)}#!/login` : PATHS.signIn;

export const searchPath = (query: string): string => `${PATHS.search}?query=${encodeURIComponent(query)}`;

export const SUPPORT_EMAIL = 'support@tinkerdesk.dev';
