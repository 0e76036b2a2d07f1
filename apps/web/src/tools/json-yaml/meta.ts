import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'json-yaml',
  name: 'JSON to YAML',
  path: '/tools/converters/json/yaml/',
  category: 'Converters',
  description: 'Convert JSON to clean, readable YAML.',
  keywords: ['json', 'yaml', 'yml', 'convert', 'config'],
  resources: [
    { title: 'YAML 1.2 specification', url: 'https://yaml.org/spec/1.2.2/' },
    { title: 'RFC 8259: JSON', url: 'https://www.rfc-editor.org/rfc/rfc8259' },
  ],
};
