/** Commerce's answers and constants, browser-safe (no Nest, no class-validator). */

/** What GET /v1/users/me may include besides the profile (comma separated). */
export const PROFILE_INCLUDES = ['services'] as const;

/** A provider service (spec section 3): name, provider, vendor, account, plus provider-specific extras. */
export interface ServiceView {
  id: string;
  name: string;
  provider: string;
  vendor: string;
  account: string;
  created: string;
  modified: string;
  [extra: string]: unknown;
}
