import { describe, expect, it } from '@jest/globals';
import type { ArgumentMetadata } from '@nestjs/common';
import { AppError, ProductsParamsDto, ProductsQueryDto } from '@tinkerdesk/contracts';
import { flatDto } from '@tinkerdesk/nest-common';
import { httpValidationPipe } from './validation.js';

const ID = '5c0a2a8e-8b1e-4a4e-9d2f-3c1b2a4e5f60';

async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return { ok: await run() };
  } catch (error) {
    return error instanceof AppError ? { code: error.code, message: error.message } : error;
  }
}

// flatDto's property tests (libs/nest-common/src/flat-dto.spec.ts) hold its answers against the whole pipe.
describe('httpValidationPipe', () => {
  const pipe = httpValidationPipe();
  const full = httpValidationPipe(false);
  const params: ArgumentMetadata = { type: 'param', metatype: ProductsParamsDto, data: undefined };

  it("takes the quick way for a path's and a query's DTO, with the instance the whole pipe answers", async () => {
    expect(flatDto(ProductsParamsDto)).toBeDefined();
    const quick = await pipe.transform({ id: ID, sid: ID }, params);
    expect(quick).toBeInstanceOf(ProductsParamsDto);
    expect(quick).toStrictEqual(await full.transform({ id: ID, sid: ID }, params));
    const query: ArgumentMetadata = { type: 'query', metatype: ProductsQueryDto, data: undefined };
    expect(await pipe.transform({ servicetype: 'digital' }, query)).toStrictEqual(await full.transform({ servicetype: 'digital' }, query));
  });

  it('answers what fails with the words of the whole pipe (unknown fields refused, not stripped)', async () => {
    for (const value of [{ id: ID, sid: 'x' }, { id: ID, sid: ID, extra: '1' }, { id: ID }, { id: ID, sid: `${ID}\u0000` }]) {
      const answer = await outcome(() => pipe.transform(value, params));
      expect(answer).toEqual(await outcome(() => full.transform(value, params)));
      expect(answer).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('takes the whole way for a body', async () => {
    const body: ArgumentMetadata = { type: 'body', metatype: ProductsParamsDto, data: undefined };
    await expect(pipe.transform({ id: ID, sid: ID, extra: '1' }, body)).rejects.toThrow('property extra should not exist');
  });
});
