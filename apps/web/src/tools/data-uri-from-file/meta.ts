import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'data-uri-from-file',
  name: 'Data URI from image or file',
  path: '/tools/converters/data-uri-url/from-image-or-file/',
  category: 'Converters',
  description: 'Turn an image or any file into a data: URI you can paste into HTML, CSS or JSON.',
  keywords: ['data uri', 'data url', 'base64', 'b64', 'image', 'embed', 'inline'],
  resources: [{ title: 'RFC 2397: the data URL scheme', url: 'https://www.rfc-editor.org/rfc/rfc2397' }],
};
