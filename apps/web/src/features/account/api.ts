/** The account feature's calls of /v1, typed by the generated client. */
import { unwrap, v1 } from '../../shared/api';

export const updateProfile = (name: string, tz: string) => unwrap(v1.POST('/v1/users/me', { body: { name, tz } }));

/** `sent` is false when the address is verified already or a link went out moments ago. */
/** `returnTo`: a path on this site the email's link leads to once it has verified the address (else /account). */
export const requestVerification = (guid: string, returnTo?: string) =>
  unwrap(v1.POST('/v1/users/{guid}/requestverification', { params: { path: { guid } }, body: returnTo ? { returnTo } : {} }));
