import type { ComponentType } from 'react';
import { preloadableLazy } from '../shared/preloadable-lazy';
import { compareNames } from '../shared/text-order';
import { CATEGORIES } from './categories';
import type { Tool, ToolCategory, ToolMeta, ToolPageProps } from './types';

/**
 * The one tool registry. Every tools/<id>/meta.ts is read eagerly (small, needed by the menu and
 * search); tools/<id>/page.tsx, when a tool has one, is loaded lazily, so each tool is its own chunk.
 * It feeds the All Tools panel, /tools/, /search, the footer's resources and the router.
 */
const metas = import.meta.glob<{ meta: ToolMeta }>('./*/meta.ts', { eager: true });
const pages = import.meta.glob<{ default: ComponentType<ToolPageProps> }>('./*/page.tsx');

export { CATEGORIES, CATEGORY_BLURBS } from './categories';

export const TOOLS: readonly Tool[] = Object.entries(metas)
  .map(([file, mod]): Tool => {
    const loader = pages[file.replace(/meta\.ts$/, 'page.tsx')];
    return loader ? { ...mod.meta, page: preloadableLazy(loader) } : { ...mod.meta };
  })
  .sort((a, b) => compareNames(a.name, b.name));

/** The tools that work today (a tool without a page is listed as coming soon). */
export const BUILT_TOOLS: readonly Tool[] = TOOLS.filter((t) => t.page !== undefined);

export function toolsByCategory(): Array<{ category: ToolCategory; tools: Tool[] }> {
  return CATEGORIES.map((category) => ({ category, tools: TOOLS.filter((t) => t.category === category) })).filter(
    (g) => g.tools.length > 0,
  );
}

function normalise(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

/** The tool whose route is this path (with or without the trailing slash), if any. */
export function toolForPath(pathname: string): Tool | undefined {
  const wanted = normalise(pathname);
  return TOOLS.find((t) => normalise(t.path) === wanted);
}

/** The anchor id of a category section on /tools/ ("Images & documents" → "cat-images-documents"). */
export function categoryAnchor(category: ToolCategory): string {
  return `cat-${category.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}
