import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * React.lazy for a named export: the module loads when the component first renders (a dialog when it
 * opens, the grid when its screen shows), so it stays out of the chunk that renders it. Render it
 * inside a Suspense boundary of its own, or the nearest one (a layout's) replaces the whole page
 * while it loads.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props: the component keeps its own type
export function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M>(load: () => Promise<M>, name: K): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}
