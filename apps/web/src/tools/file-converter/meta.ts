import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'file-converter',
  name: 'File converter',
  path: '/tools/converters/files/',
  category: 'Converters',
  // Names no format: which ones this server converts depends on the engines its workers have (the page lists them).
  description: 'Convert files and web pages to other formats on the server; the page lists the formats it converts right now.',
  keywords: [
    'convert',
    'docx',
    'pdf',
    'word',
    'excel',
    'xlsx',
    'csv',
    'powerpoint',
    'pptx',
    'odt',
    'webp',
    'avif',
    'heic',
    'web page',
    'url',
    'libreoffice',
  ],
  resources: [{ title: 'API: /v1/convert (OpenAPI)', url: '/v1/docs' }],
};
