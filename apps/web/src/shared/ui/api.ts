/** The tools kit's calls of /v1, typed by the generated client. */
import { unwrap, v1 } from '../api';

/** The server fetches `url` for a tool (own account only; the SSRF guard decides what it may reach). */
export const fetchUrlContent = (guid: string, url: string) =>
  unwrap(v1.POST('/v1/users/{guid}/fetch', { params: { path: { guid } }, body: { url } }));
