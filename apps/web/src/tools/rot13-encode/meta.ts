import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'rot13-encode',
  name: 'ROT13 encode',
  path: '/tools/converters/rot13/encode/',
  category: 'Text',
  description: 'Rotate letters by 13 places; everything else stays as it is.',
  keywords: ['rot13', 'caesar', 'cipher', 'encode', 'text'],
};
