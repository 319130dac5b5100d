import { withDeadline } from '@qhorus/blocks-summarisation';

describe('withDeadline', () => {
  it('rejects with the timeout error and aborts when the work never settles', async () => {
    const abort = jest.fn();
    const never = new Promise<string>(() => undefined);
    await expect(withDeadline(never, 20, abort, () => new Error('too slow'))).rejects.toThrow('too slow');
    expect(abort).toHaveBeenCalledTimes(1);
  });

  it('settles with the work when it finishes in time, without aborting', async () => {
    const abort = jest.fn();
    await expect(withDeadline(Promise.resolve('ok'), 1_000, abort, () => new Error('x'))).resolves.toBe('ok');
    await expect(withDeadline(Promise.reject(new Error('own')), 1_000, abort, () => new Error('x'))).rejects.toThrow('own');
    expect(abort).not.toHaveBeenCalled();
  });
});
