import type { PreloadableLazy } from '../shared/preloadable-lazy';

export type ToolCategory = 'Converters' | 'Text' | 'Generators' | 'Images & documents' | 'Barcodes';

export interface ResourceLink {
  title: string;
  url: string;
}

/** What each tools/<id>/meta.ts exports as `meta`; the one registry (registry.ts) is built from these. */
export interface ToolMeta {
  /** The folder name: tools/<id>/. */
  id: string;
  name: string;
  /** The route of the tool's page (docs/web-app.md#routes). */
  path: string;
  category: ToolCategory;
  /** One sentence: what the tool does. Shown on cards, in search results and under the page title. */
  description: string;
  /** Extra words people search with (ranked below the name, above the description). */
  keywords: string[];
  /** Further reading, shown in the footer's Resources list while the tool's page is open. */
  resources?: ResourceLink[];
}

/** Props a tool's page component receives (the default export of tools/<id>/page.tsx). */
export interface ToolPageProps {
  tool: Tool;
}

export interface Tool extends ToolMeta {
  /** The tool's page when tools/<id>/page.tsx exists (its own lazy chunk); otherwise a coming-soon notice is shown. */
  page?: PreloadableLazy<ToolPageProps>;
}
