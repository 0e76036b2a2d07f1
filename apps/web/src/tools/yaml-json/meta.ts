import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'yaml-json',
  name: 'YAML to JSON',
  path: '/tools/converters/yaml/json/',
  category: 'Converters',
  description: 'Convert YAML 1.2 documents, anchors included, to JSON.',
  keywords: ['yaml', 'json', 'yml', 'convert', 'config', 'docker-compose', 'merge keys'],
  resources: [{ title: 'YAML 1.2 specification', url: 'https://yaml.org/spec/1.2.2/' }],
};
