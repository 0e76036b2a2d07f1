import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'file-converter',
  name: 'File converter',
  path: '/tools/converters/files/',
  category: 'Converters',
  description:
    'Convert documents, spreadsheets, presentations, PDFs, images and web pages on the server: DOCX to PDF, XLSX to CSV, PNG to WebP and more.',
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
