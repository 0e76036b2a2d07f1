import type { ServiceView } from './commerce-views.js';
import type { Profile } from './identity-views.js';

/**
 * GET /v1/users/me (without `success`): the profile (identity) and, with `include=services`, the
 * user's provider services (commerce). The web app's session profile has this shape.
 */
export interface AccountView extends Profile {
  services?: ServiceView[];
}
