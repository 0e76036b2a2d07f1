import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'markdown-html',
  name: 'Markdown to HTML',
  path: '/tools/converters/markdown/html/',
  category: 'Converters',
  description: 'CommonMark and GitHub-flavoured Markdown to HTML with a safe live preview.',
  keywords: ['markdown', 'html', 'commonmark', 'gfm', 'md'],
  resources: [
    { title: 'CommonMark specification', url: 'https://spec.commonmark.org/' },
    { title: 'GitHub Flavored Markdown', url: 'https://github.github.com/gfm/' },
  ],
};
