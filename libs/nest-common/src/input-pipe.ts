import { type ArgumentMetadata, Injectable, type PipeTransform, type ValidationPipe } from '@nestjs/common';
import { AppError, inputProblem } from '@tinkerdesk/contracts';
import { getMetadataStorage } from 'class-validator';
import { flatDto } from './flat-dto.js';
import { rememberValidationMetadata } from './validation-metadata.js';

const WHAT: Record<ArgumentMetadata['type'], string> = { body: 'the body', query: 'the query', param: 'the path', custom: 'the input' };

/**
 * Where input enters (HTTP at the gateway, messages in the services): every body, query and path
 * parameter is refused with VALIDATION_FAILED when it nests too deep or holds a NUL character, before
 * the DTO validation runs (whose transformer would overflow its stack on deep input). Values of custom
 * decorators (the session, the client address) come from the server and pass as they are.
 *
 * For the kinds of input `quickWay` names, a value that passes its DTO as it is takes flatDto's quick
 * way (the same instance the validation would answer, with the same checks); every other value, and
 * any that fails, takes the whole way, which words the error.
 */
@Injectable()
export class InputPipe implements PipeTransform {
  constructor(
    private readonly validation: ValidationPipe,
    private readonly quickWay: (type: ArgumentMetadata['type']) => boolean = () => false,
  ) {
    rememberValidationMetadata();
  }

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') return value;
    if (this.quickWay(metadata.type)) {
      const entity = flatDto(metadata.metatype)?.accept(value);
      if (entity) return entity;
    }
    const what = metadata.type === 'param' && metadata.data ? `path parameter ${metadata.data}` : WHAT[metadata.type];
    // The DTO's own list bounds first (top-level fields only, so safe on any input): their words are the clearer.
    const problem = listTooLong(value, metadata.metatype) ?? inputProblem(value, what);
    if (problem) throw new AppError('VALIDATION_FAILED', problem);
    return this.validation.transform(value, metadata);
  }
}

/**
 * Validators whose first constraint is a list's largest size: class-validator's ArrayMaxSize, and the
 * contracts' own bounded lists (IsBoundedList, whose second constraint is its message).
 */
const LIST_BOUNDS = new Set(['arrayMaxSize', 'isBoundedList']);

/** The largest size each list field of a DTO class allows, read once per class. */
const listBounds = new WeakMap<object, Array<{ property: string; max: number; message: string | undefined }>>();

function boundsOf(metatype: new (...args: never[]) => unknown) {
  let bounds = listBounds.get(metatype);
  if (!bounds) {
    bounds = getMetadataStorage()
      .getTargetValidationMetadatas(metatype, '', true, false)
      .filter((m) => LIST_BOUNDS.has(m.name ?? '') && typeof m.constraints?.[0] === 'number')
      .map((m) => ({
        property: m.propertyName,
        max: m.constraints[0] as number,
        message: typeof m.message === 'string' ? m.message : typeof m.constraints[1] === 'string' ? m.constraints[1] : undefined,
      }));
    listBounds.set(metatype, bounds);
  }
  return bounds;
}

/**
 * A list longer than its DTO's ArrayMaxSize, refused before validation: class-validator would first
 * check every item of it (100,000 URLs take seconds) and only then say the list is too long.
 */
function listTooLong(value: unknown, metatype: ArgumentMetadata['metatype']): string | undefined {
  if (!metatype || typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  for (const { property, max, message } of boundsOf(metatype as new (...args: never[]) => unknown)) {
    const list = (value as Record<string, unknown>)[property];
    if (Array.isArray(list) && list.length > max) return message ?? `${property} may hold at most ${max} items`;
  }
  return undefined;
}
