import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'counter',
  name: 'Counter',
  path: '/tools/counters/new/',
  category: 'Generators',
  description: 'Named tally counters that remember their counts.',
  keywords: ['counter', 'tally', 'count', 'clicker'],
};
