/** Every route of the product spec (section 2) in one place. Tool routes live in the tool registry. */
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
  account: '/account',
  billing: '/billing',
  hardware: '/integrations/hardware/',
  tools: '/tools/',
  notFound: '/404',
  apiDocs: '/v1/docs',
  openApi: '/v1/openapi.json',
} as const;

export const searchPath = (query: string): string => `${PATHS.search}?query=${encodeURIComponent(query)}`;

export const SUPPORT_EMAIL = 'support@tinkerdesk.dev';
