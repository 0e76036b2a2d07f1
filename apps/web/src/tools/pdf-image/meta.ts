import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'pdf-image',
  name: 'PDF to image',
  path: '/tools/converters/pdf/image/',
  category: 'Images & documents',
  description: 'Render PDF pages to PNG or JPG in your browser.',
  keywords: ['pdf', 'png', 'jpg', 'image', 'render', 'pages'],
};
