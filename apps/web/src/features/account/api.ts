/** The account feature's calls of /v1, typed by the generated client. */
import { bearer, unwrap, v1 } from '../../shared/api';

export const updateProfile = (token: string | null, name: string, tz: string) =>
  unwrap(v1.POST('/v1/users/me', { body: { name, tz }, headers: bearer(token) }));

/** `sent` is false when the address is verified already or a link went out moments ago. */
export const requestVerification = (token: string | null, guid: string) =>
  unwrap(v1.POST('/v1/users/{guid}/requestverification', { params: { path: { guid } }, headers: bearer(token) }));
