/** The account feature's calls of /v1, typed by the generated client. */
import { unwrap, v1 } from '../../shared/api';

export const updateProfile = (name: string, tz: string) => unwrap(v1.POST('/v1/users/me', { body: { name, tz } }));

/** `sent` is false when the address is verified already or a link went out moments ago. */
export const requestVerification = (guid: string) =>
  unwrap(v1.POST('/v1/users/{guid}/requestverification', { params: { path: { guid } } }));
