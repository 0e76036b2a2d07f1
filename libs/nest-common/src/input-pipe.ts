import { type ArgumentMetadata, Injectable, type PipeTransform, type ValidationPipe } from '@nestjs/common';
import { AppError, inputProblem } from '@tinkerdesk/contracts';

const WHAT: Record<ArgumentMetadata['type'], string> = { body: 'the body', query: 'the query', param: 'the path', custom: 'the input' };

/**
 * Where input enters (HTTP at the gateway, messages in the services): every body, query and path
 * parameter is refused with VALIDATION_FAILED when it nests too deep or holds a NUL character, before
 * the DTO validation runs (whose transformer would overflow its stack on deep input). Values of custom
 * decorators (the session, the client address) come from the server and pass as they are.
 */
@Injectable()
export class InputPipe implements PipeTransform {
  constructor(private readonly validation: ValidationPipe) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') return value;
    const what = metadata.type === 'param' && metadata.data ? `path parameter ${metadata.data}` : WHAT[metadata.type];
    const problem = inputProblem(value, what);
    if (problem) throw new AppError('VALIDATION_FAILED', problem);
    return this.validation.transform(value, metadata);
  }
}
