import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsString, MaxLength, MetadataStorage } from 'class-validator';
import { apiValidationPipe } from '../../src/common/validation.pipe';
import { PostBatchDto } from '../../src/messages/dto/post-batch.dto';
import { PostMessageDto } from '../../src/messages/dto/post-message.dto';
import { cacheValidationMetadata } from '../../src/common/validation-metadata-cache';

/** The lookup as class-validator answers it without the cache (the prototype method, on the same storage). */
const uncached = (target: object, groups?: string[]) =>
  MetadataStorage.prototype.getTargetValidationMetadatas.call(getMetadataStorage(), target as new () => object, '', false, false, groups);

const validateBody = (metatype: new () => object, value: unknown) => apiValidationPipe().transform(value, { type: 'body', metatype });

describe('cacheValidationMetadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it('answers what class-validator answers, once per class', () => {
    const storage = getMetadataStorage();
    for (const dto of [PostMessageDto, PostBatchDto]) {
      const first = storage.getTargetValidationMetadatas(dto, '', false, false);
      expect(first).toEqual(uncached(dto));
      expect(storage.getTargetValidationMetadatas(dto, '', false, false)).toBe(first);
      expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    }
  });

  it('a class defined after its parent was validated has its own and the inherited rules', async () => {
    class Parent {
      @IsString() name!: string;
    }
    await expect(validateBody(Parent, { name: 'a' })).resolves.toBeInstanceOf(Parent);
    class Child extends Parent {
      @IsInt() count!: number;
    }
    await expect(validateBody(Child, { name: 'a', count: 1 })).resolves.toBeInstanceOf(Child);
    await expect(validateBody(Child, { name: 1, count: 'x' })).rejects.toMatchObject({
      response: { details: expect.arrayContaining([expect.objectContaining({ field: 'name' }), expect.objectContaining({ field: 'count' })]) },
    });
    // The parent did not pick up the child's rule (nor is `count` whitelisted for it).
    await expect(validateBody(Parent, { name: 'a', count: 1 })).rejects.toMatchObject({ response: { details: [expect.objectContaining({ field: 'count' })] } });
  });

  it('leaves grouped lookups to class-validator', () => {
    class Grouped {
      @MaxLength(3, { groups: ['short'] }) @IsString() text!: string;
    }
    const storage = getMetadataStorage();
    expect(storage.getTargetValidationMetadatas(Grouped, '', false, false, ['short'])).toEqual(uncached(Grouped, ['short']));
    expect(storage.getTargetValidationMetadatas(Grouped, '', false, false, ['short'])).not.toBe(storage.getTargetValidationMetadatas(Grouped, '', false, false, ['short']));
  });

  it('still names the bad message of a batch, every time', async () => {
    const messages = [{ content: 'ok' }, { content: 'ok' }, { type: 'NOPE', content: 'x' }];
    for (let i = 0; i < 3; i++) {
      await expect(validateBody(PostBatchDto, { messages })).rejects.toMatchObject({ response: { details: [expect.objectContaining({ field: 'messages.2.type' })] } });
    }
  });
});
