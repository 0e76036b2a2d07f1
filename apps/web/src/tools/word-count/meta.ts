import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'word-count',
  name: 'Word count',
  path: '/tools/wordcount/',
  category: 'Text',
  description: 'Count words, characters, sentences and reading time as you type.',
  keywords: ['word', 'count', 'characters', 'text', 'reading time'],
};
