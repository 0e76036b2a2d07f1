/**
 * A shop link's slug (`/s/{slug}`, docs/api.md#shop-links): chosen by the seller for one of their
 * services, unique across the site (compared case-insensitively; stored lowercase). Browser-safe: the
 * service form checks the same rules before it sends.
 */

export const SHOP_SLUG_MIN = 3;
export const SHOP_SLUG_MAX = 40;

/** Lowercase a–z and 0–9 in words joined by single hyphens (so no hyphen first, last or twice in a row). */
export const SHOP_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Words no shop may take: the site's own paths and words that would pass for the site speaking
 * (a link such as /s/admin or /s/support must never look official).
 */
export const RESERVED_SHOP_SLUGS: ReadonlySet<string> = new Set([
  'about',
  'account',
  'accounts',
  'admin',
  'administrator',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'blog',
  'checkout',
  'contact',
  'dashboard',
  'docs',
  'faq',
  'help',
  'home',
  'info',
  'integrations',
  'legal',
  'login',
  'logout',
  'mail',
  'new',
  'null',
  'oauth',
  'oauth2',
  'official',
  'orders',
  'pay',
  'payments',
  'pricing',
  'privacy',
  'register',
  'requests',
  'root',
  's',
  'search',
  'security',
  'settings',
  'shop',
  'shops',
  'signin',
  'signout',
  'signup',
  'static',
  'status',
  'staff',
  'support',
  'system',
  'terms',
  'test',
  'tinkerdesk',
  'tools',
  'undefined',
  'v1',
  'www',
]);

/** Why a slug cannot be a shop link, in plain words; undefined when it can. */
export function shopSlugProblem(slug: string): string | undefined {
  if (slug.length < SHOP_SLUG_MIN || slug.length > SHOP_SLUG_MAX)
    return `a shop link needs ${SHOP_SLUG_MIN} to ${SHOP_SLUG_MAX} characters`;
  if (/[A-Z]/.test(slug)) return 'a shop link uses lowercase letters only';
  if (slug.startsWith('-') || slug.endsWith('-')) return 'a shop link cannot start or end with a hyphen';
  if (slug.includes('--')) return 'a shop link cannot have two hyphens in a row';
  if (!SHOP_SLUG_PATTERN.test(slug)) return 'a shop link may hold only letters a–z, digits 0–9 and hyphens';
  if (RESERVED_SHOP_SLUGS.has(slug)) return `“${slug}” is reserved: choose another shop link`;
  return undefined;
}

/**
 * A suggestion from a service's name: lowercase, accents dropped, every run of other characters one
 * hyphen, cut to the maximum on a word boundary. Answers '' when nothing usable is left (the seller
 * then types one); a reserved or short result is padded to something valid.
 */
export function suggestShopSlug(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SHOP_SLUG_MAX) break;
    slug = next;
  }
  if (!slug && words[0]) slug = words[0].slice(0, SHOP_SLUG_MAX);
  if (!slug) return '';
  if (slug.length < SHOP_SLUG_MIN || RESERVED_SHOP_SLUGS.has(slug)) slug = `${slug}-shop`;
  return slug;
}
