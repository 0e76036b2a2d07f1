import { RETURN_TO_PATTERN } from '@tinkerdesk/contracts/web';

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
  /** The account dashboard (features/account/pages/AccountPages.tsx): Profile at /account and one route per section. */
  account: '/account',
  accountProfile: '/account/profile',
  accountSelling: '/account/selling',
  accountOrders: '/account/orders',
  accountTerminals: '/account/terminals',
  accountFiles: '/account/files',
  accountApps: '/account/apps',
  /** The billing dashboard (features/commerce/pages/BillingPage.tsx): cards at /billing and one route per section. */
  billing: '/billing',
  billingCards: '/billing/cards',
  billingPlans: '/billing/plans',
  billingRequests: '/billing/requests',
  billingReceipts: '/billing/receipts',
  billingTimeline: '/billing/timeline',
  hardware: '/integrations/hardware/',
  tools: '/tools/',
  notFound: '/404',
  apiDocs: '/v1/docs',
  openApi: '/v1/openapi.json',
} as const;

/**
 * A same-site path to return to after signing in, or undefined when the value is not one (//host,
 * https://host, /\\host, white space or control characters: the server's own rule, RETURN_TO_PATTERN).
 */
export function safeNext(value: string | null | undefined): string | undefined {
  if (!value || value.length > 500 || !RETURN_TO_PATTERN.test(value)) return undefined;
  return value;
}

/** Sign-up that comes back to `next` afterwards (and whose verification link leads there too). */
export const signUpPath = (next?: string): string =>
  safeNext(next) ? `${PATHS.login}?next=${encodeURIComponent(next!)}#!/register` : PATHS.register;

/** Sign-in that comes back to `next` afterwards. */
export const signInPath = (next?: string): string =>
  safeNext(next) ? `${PATHS.login}?next=${encodeURIComponent(next!)}#!/login` : PATHS.signIn;

export const searchPath = (query: string): string => `${PATHS.search}?query=${encodeURIComponent(query)}`;

export const SUPPORT_EMAIL = 'support@tinkerdesk.dev';
