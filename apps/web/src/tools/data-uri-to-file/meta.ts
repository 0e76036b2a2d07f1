import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'data-uri-to-file',
  name: 'Data URI to image or file',
  path: '/tools/converters/data-uri-url/to-image-or-file/',
  category: 'Converters',
  description: 'Preview a data: URI and save it back as a file with a sensible name.',
  keywords: ['data uri', 'data url', 'decode', 'base64', 'b64', 'hex', 'hex dump', 'image', 'download'],
  resources: [{ title: 'RFC 2397: the data URL scheme', url: 'https://www.rfc-editor.org/rfc/rfc2397' }],
};
