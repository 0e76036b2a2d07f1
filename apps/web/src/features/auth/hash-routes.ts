/** The hash-based routes of the sign-in page and the entry hashes (docs/web-app.md#routes). Pure: no React, no session. */

export type LoginView = { name: 'register' } | { name: 'login' } | { name: 'reset' } | { name: 'reset-token'; token: string };

/** The hash picks the view: #!/register, #!/login (the default), #!/reset and #!/reset/{token}. */
export function viewOf(hash: string): LoginView {
  const route = hash.replace(/^#!?/, '');
  const reset = /^\/reset\/([^/?#]+)/.exec(route);
  if (reset) return { name: 'reset-token', token: decodeURIComponent(reset[1]!) };
  if (route.startsWith('/reset')) return { name: 'reset' };
  if (route.startsWith('/register')) return { name: 'register' };
  return { name: 'login' };
}

/** 'impersonate/{code}' or 'tokenswap/{code}' anywhere in the hash. */
export function parseEntryHash(hash: string): { kind: 'impersonate' | 'tokenswap'; code: string } | null {
  const match = /(impersonate|tokenswap)\/([^/?#&]+)/.exec(hash);
  return match ? { kind: match[1] as 'impersonate' | 'tokenswap', code: decodeURIComponent(match[2]!) } : null;
}
