import { applyDecorators, type StreamableFile } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiResponse } from '@nestjs/swagger';
import type { ErrorCode, ResponseMap, ResponseName } from '@tinkerdesk/contracts';
import type { JsonBody } from './json-body.js';

/** The OpenAPI component that documents `ResponseMap[name]` (generated from the contracts). */
export function answerSchemaName(name: ResponseName): string {
  return `${name}Response`;
}

/** Where a route's own error codes wait for `completeErrorResponses` (openapi.ts). */
export const ERROR_CODES_EXTENSION = 'x-error-codes';

/** Marks a route that answers 429 RATE_LIMITED past its limit. */
export const RATE_LIMITED_EXTENSION = 'x-rate-limited';

/** Marks a route that works without a token and takes one when sent: `security` becomes [{}, bearer]. */
export const OPTIONAL_AUTH_EXTENSION = 'x-optional-auth';

/** Marks a route of a bearer-documented controller that takes no token at all: `security` becomes []. */
export const PUBLIC_EXTENSION = 'x-public';

/** Documents a route that anyone may call, signed in or not (see OptionalBearerGuard). */
export function ApiOptionalAuth(): MethodDecorator {
  return applyDecorators(ApiBearerAuth(), ApiExtension(OPTIONAL_AUTH_EXTENSION, true));
}

/** Documents a route that needs no token, inside a controller whose other routes need one. */
export function ApiPublic(): MethodDecorator {
  return applyDecorators(ApiExtension(PUBLIC_EXTENSION, true));
}

/** A route's answer: the body itself, or the same body made of a service's answer as it sent it (JsonBody). */
type Returning<T> = (...args: never[]) => T | JsonBody<T> | Promise<T | JsonBody<T>>;

/**
 * Documents a route's success body as `ResponseMap[name]` and makes the compiler check that the
 * route returns exactly that type: a route that answers something else does not compile.
 */
export function ApiAnswer<K extends ResponseName>(status: number, name: K, description?: string) {
  return <T extends Returning<ResponseMap[K]>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<T>): void => {
    ApiResponse({
      status,
      description: description ?? (status === 201 ? 'Created' : 'OK'),
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${answerSchemaName(name)}` } } },
    })(target, key, descriptor);
  };
}

/**
 * `ApiAnswer` for a route that answers either that body or, when asked, a file (a StreamableFile):
 * the file's answer is documented as `fileStatus` with a binary body.
 */
export function ApiAnswerOrFile<K extends ResponseName>(
  status: number,
  name: K,
  description: string,
  fileStatus: number,
  fileDescription: string,
) {
  return <T extends Returning<ResponseMap[K] | StreamableFile>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<T>,
  ): void => {
    ApiResponse({
      status,
      description,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${answerSchemaName(name)}` } } },
    })(target, key, descriptor);
    ApiResponse({
      status: fileStatus,
      description: fileDescription,
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    })(target, key, descriptor);
  };
}

/** Documents a route whose success is 204 with no body. */
export function ApiNoContent(description = 'Done (no body)'): MethodDecorator {
  return applyDecorators(ApiResponse({ status: 204, description }));
}

/**
 * The error codes a route answers besides the ones every route of its kind can (500, 503; 401 with a
 * bearer token; 400 with a body or parameters; 429 with a rate limit): openapi.ts turns them into one
 * response per status whose `error` lists exactly these codes.
 */
export function ApiErrors(...codes: ErrorCode[]): MethodDecorator {
  return applyDecorators(ApiExtension(ERROR_CODES_EXTENSION, codes));
}
