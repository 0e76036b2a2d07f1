import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from '@tinkerdesk/nest-common';
import { mapError } from './error-mapping.js';

/** Every error leaves the gateway as `{ success: false, error, detail }`; 500s only carry an id. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    const errorId = randomUUID();
    const mapped = mapError(exception, errorId);
    if (mapped.unexpected !== undefined) {
      this.logger.error({ err: mapped.unexpected, errorId, method: request.method, url: request.originalUrl }, 'unexpected error');
    }
    if (response.headersSent) {
      response.destroy();
      return;
    }
    for (const [name, value] of Object.entries(mapped.headers ?? {})) response.setHeader(name, value);
    response.status(mapped.status).json(mapped.body);
  }
}
