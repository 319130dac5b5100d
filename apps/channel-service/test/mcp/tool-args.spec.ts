import { BadRequestException } from '@nestjs/common';
import { CreateChannelDto } from '../../src/channels/dto/create-channel.dto';
import { channelArg, noArgs, optional, required, toDto, toolInput, withIntegerArgs } from '../../src/mcp/tool-args';

const CREATE_RENAMES = { name: 'name', update_after_messages: 'summaryThreshold', summary_threshold: 'summaryThreshold' };

async function rejection(work: Promise<unknown> | (() => unknown)): Promise<{ message: string; details: unknown }> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (e) {
    expect(e).toBeInstanceOf(BadRequestException);
    return (e as BadRequestException).getResponse() as { message: string; details: unknown };
  }
  throw new Error('expected a 400');
}

describe('tool arguments', () => {
  it('maps snake_case onto the REST DTO and validates it with the REST pipe, its errors naming the argument sent', async () => {
    const dto = await toDto(CreateChannelDto, { name: 'ops', update_after_messages: 5 }, CREATE_RENAMES);
    expect(dto).toBeInstanceOf(CreateChannelDto);
    expect(dto).toEqual({ name: 'ops', summaryThreshold: 5 });
    expect(await rejection(toDto(CreateChannelDto, { name: 'Bad Name', update_after_messages: 0 }, CREATE_RENAMES))).toEqual({
      message: expect.stringMatching(/^Invalid request: name must be a slug.*; update_after_messages must not be less than 1$/),
      details: [expect.objectContaining({ field: 'name' }), { field: 'update_after_messages', problems: ['update_after_messages must not be less than 1'] }],
    });
    // Through an alias, the error names the alias given.
    expect((await rejection(toDto(CreateChannelDto, { name: 'ops', summary_threshold: 0 }, CREATE_RENAMES))).details).toEqual([
      { field: 'summary_threshold', problems: ['summary_threshold must not be less than 1'] },
    ]);
  });

  it('accepts aliases that agree and refuses ones that differ', async () => {
    expect(await toDto(CreateChannelDto, { name: 'ops', update_after_messages: 5, summary_threshold: 5 }, CREATE_RENAMES)).toEqual({ name: 'ops', summaryThreshold: 5 });
    expect((await rejection(toDto(CreateChannelDto, { name: 'ops', update_after_messages: 5, summary_threshold: 6 }, CREATE_RENAMES))).message).toBe(
      'Invalid request: give update_after_messages or summary_threshold, not both',
    );
  });

  it('refuses undeclared arguments by name, even when they are DTO fields', async () => {
    expect((await rejection(toDto(CreateChannelDto, { name: 'ops', members: ['x'], colour: 'red' }, CREATE_RENAMES))).message).toBe(
      'Invalid request: property members should not exist; property colour should not exist',
    );
    expect((await rejection(() => noArgs({ channel: 'ops', extra: 1 }, ['channel']))).message).toBe('Invalid request: property extra should not exist');
  });

  it('requires channel to be a non-empty string', async () => {
    expect(channelArg({ channel: 'ops' })).toBe('ops');
    for (const bad of [{}, { channel: '' }, { channel: 3 }]) {
      expect((await rejection(() => channelArg(bad))).message).toBe('Invalid request: channel must be the name of a channel');
    }
  });

  it('advertises a closed JSON Schema, required naming the required arguments, each argument one type', () => {
    const input = toolInput({
      channel: required({ type: 'string', description: 'the channel' }),
      after_seq: optional({ type: 'integer', description: 'from', schema: { minimum: 0 } }),
      type: optional({ type: 'array', description: 'types', schema: { items: { type: 'string' } } }),
    });
    expect(input).toEqual({
      type: 'object',
      properties: {
        channel: { type: 'string', description: 'the channel' },
        after_seq: { type: 'integer', description: 'from', minimum: 0 },
        type: { type: 'array', description: 'types', items: { type: 'string' } },
      },
      required: ['channel'],
      additionalProperties: false,
    });
    expect(toolInput({ limit: optional({ type: 'integer', description: 'n' }) })).not.toHaveProperty('required');
  });

  it('converts a digit string of an integer argument (only those) to its number and leaves anything else for the DTO', () => {
    const input = toolInput({ after_seq: optional({ type: 'integer', description: 'from' }), topic: optional({ type: 'string', description: 't' }) });
    expect(withIntegerArgs(input, { after_seq: '12', topic: '7' })).toEqual({ after_seq: 12, topic: '7' });
    expect(withIntegerArgs(input, { after_seq: '1.5' })).toEqual({ after_seq: '1.5' });
  });
});
