// Jest's jsdom environment plus what the browser has and jsdom lacks: fetch and its classes (the typed
// client builds Request objects), text encoding, structuredClone. Component tests name it in their
// docblock: `@jest-environment ./apps/web/test/jsdom-environment.mjs`. jsdom has no layout, so every
// media query answers "does not match" (a desktop-sized window).
import { TestEnvironment } from 'jest-environment-jsdom';

export default class BrowserEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const { fetch, Request, Response, Headers, TextEncoder, TextDecoder, structuredClone, ReadableStream, AbortController, AbortSignal } =
      globalThis;
    // As in a page, a path is relative to the page's address.
    const page = this.global.location.href;
    class PageRequest extends Request {
      constructor(input, init) {
        super(typeof input === 'string' || input instanceof URL ? new URL(input, page) : input, init);
      }
    }
    Object.assign(this.global, {
      fetch,
      Request: PageRequest,
      Response,
      Headers,
      TextEncoder,
      TextDecoder,
      structuredClone,
      ReadableStream,
      AbortController,
      AbortSignal,
    });
    this.global.matchMedia = (media) => ({
      matches: false,
      media,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    });
  }
}
