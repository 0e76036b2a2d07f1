// Types for the parts of web-push-testing (a CommonJS package without types) the tests use.
declare module 'web-push-testing/src/PushApiModel.js' {
  const model: { PushApiModel: new () => object };
  export default model;
}

declare module 'web-push-testing/src/server.js' {
  import type { Server } from 'node:http';
  export default class WebPushTestingServer {
    constructor(model: unknown, port: number);
    _server?: Server;
    startServer(): void;
  }
}
