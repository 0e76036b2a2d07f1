import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'password-generator',
  name: 'Password generator',
  path: '/tools/passwordgenerator/',
  category: 'Generators',
  description: 'Strong random passwords with the character sets you choose.',
  keywords: ['password', 'random', 'secure', 'strong', 'generator', 'pwgen'],
};
