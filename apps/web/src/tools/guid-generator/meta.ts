import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'guid-generator',
  name: 'GUID generator',
  path: '/tools/guidgenerator/',
  category: 'Generators',
  description: 'UUID v4 and v7 generator, one or many, in the format you need.',
  keywords: ['guid', 'uuid', 'v4', 'v7', 'identifier', 'random'],
  resources: [{ title: 'RFC 9562: UUIDs', url: 'https://www.rfc-editor.org/rfc/rfc9562' }],
};
