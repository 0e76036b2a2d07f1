import { describe, expect, it } from '@jest/globals';
import { DECORATORS } from '@nestjs/swagger';
import { ApiAnswer, ApiErrors, ERROR_CODES_EXTENSION } from './api-docs.js';

// The typecheck step (tsc over the tests) checks these: a route documented with an answer must
// return exactly that answer, and only known codes can be listed.
class Routes {
  @ApiAnswer(200, 'VerificationSent')
  sent(): Promise<{ success: true; sent: boolean }> {
    return Promise.resolve({ success: true, sent: true });
  }

  // @ts-expect-error the answer lacks `sent`
  @ApiAnswer(200, 'VerificationSent')
  missing(): Promise<{ success: true }> {
    return Promise.resolve({ success: true });
  }

  // @ts-expect-error a Profile is not a ConversionJob answer
  @ApiAnswer(200, 'ConversionJob')
  wrongAnswer(): { success: true; guid: string } {
    return { success: true, guid: 'g' };
  }

  // @ts-expect-error no such answer in ResponseMap
  @ApiAnswer(200, 'NoSuchAnswer')
  unknown(): { success: true } {
    return { success: true };
  }

  // @ts-expect-error not an error code of the catalogue
  @ApiErrors('NOT_A_CODE')
  @ApiAnswer(200, 'Ok')
  badCode(): { success: true } {
    return { success: true };
  }
}

describe('ApiAnswer and ApiErrors', () => {
  it('document the answer by its generated schema and keep the codes for the document', () => {
    const responses = Reflect.getMetadata(DECORATORS.API_RESPONSE, Routes.prototype.sent) as Record<string, { content: unknown }>;
    expect(responses['200']!.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/VerificationSentResponse' } },
    });
    const extensions = Reflect.getMetadata(DECORATORS.API_EXTENSION, Routes.prototype.badCode) as Record<string, unknown>;
    expect(extensions[ERROR_CODES_EXTENSION]).toEqual(['NOT_A_CODE']);
  });
});
