import { ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { AppError } from '@tinkerdesk/contracts';
import { InputPipe } from '@tinkerdesk/nest-common';

function messages(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((e) => {
    const here = path ? `${path}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {});
    return [...own, ...messages(e.children ?? [], here)];
  });
}

/**
 * Request validation with the DTO classes of libs/contracts, after the input checks every body, query
 * and path parameter gets (depth, NUL); failures are 400 VALIDATION_FAILED. A path's or a query's DTO
 * and input that passes it take the quick way (flatDto: the same instance the pipe would answer);
 * `quick: false`: the whole way only (the property tests' reference).
 */
export function httpValidationPipe(quick = true): InputPipe {
  const validation = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    exceptionFactory: (errors) => new AppError('VALIDATION_FAILED', messages(errors).join('; ') || 'the request is invalid'),
  });
  return new InputPipe(validation, (type) => quick && (type === 'param' || type === 'query'));
}
