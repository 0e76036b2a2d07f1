import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'base64-decode',
  name: 'Base64 decode',
  path: '/tools/converters/base64/decode/',
  category: 'Converters',
  description: 'Decode Base64 back to text or a file, with precise errors for invalid input.',
  keywords: ['base64', 'b64', 'decode', 'base64url', 'url-safe', 'atob', 'jwt', 'hex', 'hex dump', 'rfc 4648', 'binary'],
  resources: [{ title: 'RFC 4648: Base16, Base32 and Base64', url: 'https://www.rfc-editor.org/rfc/rfc4648' }],
};
