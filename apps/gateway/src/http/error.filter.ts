import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { AppError } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { mapError } from './error-mapping.js';
import { unavailable } from './request-context.js';
import type { RouteTable } from './route-table.js';

/**
 * Nest's answer for a request no route takes (an HttpException 404, unlike a service's NOT_FOUND):
 * a 405 with Allow when the path exists with other methods.
 */
function methodNotAllowed(
  exception: unknown,
  request: Request,
  routes: RouteTable | undefined,
): { error: AppError; allowed: string[] } | undefined {
  if (!routes || !(exception instanceof HttpException) || exception.getStatus() !== 404) return undefined;
  const allowed = routes.methodsOf(request.path);
  if (allowed.length === 0 || allowed.includes(request.method)) return undefined;
  const detail = `${request.method} is not allowed on ${request.path}; allowed: ${allowed.join(', ')}`;
  return { error: new AppError('METHOD_NOT_ALLOWED', detail), allowed };
}

/** Every error leaves the gateway as `{ success: false, error, detail }`; 500s only carry an id. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly routes?: RouteTable,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    const errorId = randomUUID();
    const notAllowed = methodNotAllowed(exception, request, this.routes);
    const mapped = mapError(notAllowed?.error ?? exception, errorId);
    if (mapped.unexpected !== undefined) {
      // A real 500: the error level, with the stack.
      this.logger.error({ err: mapped.unexpected, errorId, method: request.method, url: request.originalUrl }, 'unexpected error');
    }
    if (mapped.status === 503) {
      // An expected outage: no line here; the request's own line says it at the warn level, naming the dependency.
      const reason = mapped.unreachable instanceof Error ? mapped.unreachable.message : (mapped.body.detail ?? mapped.body.error);
      unavailable(response, {
        dependency: mapped.dependency ?? 'unknown',
        reason,
        ...(mapped.unreachable !== undefined ? { errorId } : {}),
      });
    }
    if (response.headersSent) {
      response.destroy();
      return;
    }
    if (notAllowed) response.setHeader('allow', notAllowed.allowed.join(', '));
    for (const [name, value] of Object.entries(mapped.headers ?? {})) response.setHeader(name, value);
    response.status(mapped.status).json(mapped.body);
  }
}
