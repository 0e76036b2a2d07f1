import { type ArgumentMetadata, type PipeTransform, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { AppError } from '@tinkerdesk/contracts';
import { InputPipe } from '@tinkerdesk/nest-common';
import { flatDto } from './flat-dto.js';

function messages(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((e) => {
    const here = path ? `${path}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {});
    return [...own, ...messages(e.children ?? [], here)];
  });
}

/**
 * Request validation with the DTO classes of libs/contracts, after the input checks every body, query
 * and path parameter gets (depth, NUL); failures are 400 VALIDATION_FAILED.
 */
export function httpValidationPipe(): GatewayInputPipe {
  const validation = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    exceptionFactory: (errors) => new AppError('VALIDATION_FAILED', messages(errors).join('; ') || 'the request is invalid'),
  });
  return new GatewayInputPipe(new InputPipe(validation));
}

/**
 * InputPipe, with a quick way for a path's or a query's DTO and input that passes it (flatDto: the same
 * instance the pipe would answer); every other value, and any that fails, goes through InputPipe.
 */
export class GatewayInputPipe implements PipeTransform {
  constructor(private readonly input: InputPipe) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'param' || metadata.type === 'query') {
      const entity = flatDto(metadata.metatype)?.accept(value);
      if (entity) return entity;
    }
    return this.input.transform(value, metadata);
  }
}
