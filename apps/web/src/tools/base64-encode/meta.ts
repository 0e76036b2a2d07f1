import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'base64-encode',
  name: 'Base64 encode',
  path: '/tools/converters/base64/encode/',
  category: 'Converters',
  description: 'Encode text (UTF-8) or files of any size to Base64, standard or URL-safe.',
  keywords: ['base64', 'b64', 'encode', 'base64url', 'url-safe', 'btoa', 'rfc 4648', 'binary'],
  resources: [{ title: 'RFC 4648: Base16, Base32 and Base64', url: 'https://www.rfc-editor.org/rfc/rfc4648' }],
};
