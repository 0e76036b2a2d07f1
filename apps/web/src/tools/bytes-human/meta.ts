import type { ToolMeta } from '../types';

export const meta: ToolMeta = {
  id: 'bytes-human',
  name: 'Size in bytes as human-readable text',
  path: '/tools/converters/size-in-bytes-as-human-readable-text/',
  category: 'Converters',
  description: 'Convert byte counts to kB, MB, KiB, MiB and back, up to exabytes.',
  keywords: ['bytes', 'size', 'kb', 'mb', 'gb', 'kib', 'mib', 'file size', 'units'],
};
