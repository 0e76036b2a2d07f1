import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppError } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';

const API_PATH = /^\/v1(\/|$)/;

/**
 * Serves the built web app for every non-/v1 path: files as they are (hashed assets cached for a
 * year), and index.html for any other GET so deep links (/tools/guidgenerator/, /login#!/register)
 * load the SPA, which renders its own 404 page for unknown routes.
 */
export function mountWebApp(app: Express, webDist: string, logger: Logger): void {
  const root = resolve(webDist);
  const index = resolve(root, 'index.html');
  if (!existsSync(index)) {
    logger.warn({ webDist: root }, 'web app not built: run `npm run build:web`; non-/v1 paths answer 503');
  }
  app.use(
    express.static(root, {
      index: false,
      redirect: false,
      setHeaders(res, path) {
        if (/[/\\]assets[/\\]/.test(path)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else res.setHeader('cache-control', 'no-cache');
      },
    }),
  );
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (API_PATH.test(req.path) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (!existsSync(index)) return next(new AppError('UNAVAILABLE', 'the web app is not built'));
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  });
}
