import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'annotated-image',
  name: 'Annotated image',
  path: '/compositions/annotated/new',
  category: 'Images & documents',
  description: 'Draw arrows, boxes and text on an image, and redact what must not be seen.',
  keywords: ['annotate', 'markup', 'arrow', 'redact', 'blur', 'screenshot'],
};
