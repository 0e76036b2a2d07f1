import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'rot13-decode',
  name: 'ROT13 decode',
  path: '/tools/converters/rot13/decode/',
  category: 'Text',
  description: 'Undo ROT13: rotate letters back by 13 places.',
  keywords: ['rot13', 'caesar', 'cipher', 'decode', 'text'],
};
