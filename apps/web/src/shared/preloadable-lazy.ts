import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A lazily loaded component that `preload()` can load ahead of its first render. */
export type PreloadableLazy<P> = LazyExoticComponent<ComponentType<P>> & { preload: () => Promise<unknown> };

/**
 * React.lazy with a `preload()`: a component loaded so before its first render renders at once (React.lazy
 * takes a thenable that answers synchronously without suspending), so the app's first render shows the
 * page where its static shell was, never "Loading…" in between (boot.tsx, loadCurrentPage).
 */
export function preloadableLazy<P>(load: () => Promise<{ default: ComponentType<P> }>): PreloadableLazy<P> {
  let loaded: { default: ComponentType<P> } | undefined;
  const preload = () => load().then((module) => (loaded = module));
  const ready = (module: { default: ComponentType<P> }) => ({ then: (resolve: (m: typeof module) => void) => resolve(module) });
  // React.lazy calls `then` on what its loader returns; a thenable that answers at once is as good as a settled promise.
  const Component = lazy(() => (loaded ? (ready(loaded) as unknown as Promise<{ default: ComponentType<P> }>) : preload()));
  return Object.assign(Component, { preload });
}
