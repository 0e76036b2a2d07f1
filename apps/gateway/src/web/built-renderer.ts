import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A renderer the web build bundles for Node (dist/shells/*.mjs: a shop's or an account's first paint),
 * imported on first use; none while the build has none (asked again next time), so a gateway started
 * before the build paints those pages once it exists.
 */
export class BuiltRenderer<T> {
  private loaded: Promise<T | undefined> | undefined;

  constructor(
    private readonly root: string,
    private readonly file: string,
  ) {}

  load(): Promise<T | undefined> {
    if (!this.loaded) {
      const path = resolve(this.root, this.file);
      this.loaded = existsSync(path)
        ? (import(pathToFileURL(path).href) as Promise<T>)
        : Promise.resolve(undefined).finally(() => (this.loaded = undefined));
    }
    return this.loaded;
  }
}

/**
 * What `work` answers, or undefined once `ms` have passed first (its later answer or failure is
 * dropped): a page that paints from a read waits for it no longer than that.
 */
export async function beforeDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((done) => (timer = setTimeout(() => done(undefined), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
