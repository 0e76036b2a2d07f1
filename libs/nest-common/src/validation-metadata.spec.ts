import { describe, expect, it } from '@jest/globals';
import { getMetadataStorage, IsInt, IsString, validate } from 'class-validator';
import { rememberValidationMetadata } from './validation-metadata.js';

class Base {
  @IsString()
  name!: string;
}

class Child extends Base {
  @IsInt()
  count!: number;
}

describe('rememberValidationMetadata', () => {
  it('answers what class-validator answers, the same list each time, and learns rules added later', async () => {
    const storage = getMetadataStorage();
    const before = storage.getTargetValidationMetadatas(Child, '', false, false);
    rememberValidationMetadata();
    rememberValidationMetadata(); // once per process: a second call changes nothing
    const first = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(first.map((m) => [m.propertyName, m.name])).toEqual(before.map((m) => [m.propertyName, m.name]));
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toBe(first);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false, ['admin'])).not.toBe(first);

    expect(await validate(Object.assign(new Child(), { name: 'a', count: 1.5 }))).toHaveLength(1);
    // A rule declared after the first validation (a decorator run late) is applied from then on.
    IsInt()(Base.prototype, 'extra');
    expect(storage.getTargetValidationMetadatas(Child, '', false, false).map((m) => m.propertyName)).toContain('extra');
    expect(await validate(Object.assign(new Child(), { name: 'a', count: 1, extra: 'x' }))).toHaveLength(1);
  });
});
