/** Issue 21 / compat.md §16: a support request past its ceiling is a 504 GATEWAY_TIMEOUT, and its work is aborted. */
import { expect, test } from 'bun:test';
import { withCeiling } from '../../core/http/routes/support.ts';
import { TrawlError } from '../../core/errors.ts';

test('past the ceiling: GATEWAY_TIMEOUT (504) and the signal is aborted', async () => {
  let seen: AbortSignal | undefined;
  const err = await withCeiling((signal) => ((seen = signal), new Promise(() => {})), 20).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TrawlError);
  expect((err as TrawlError).status).toBe(504);
  expect(seen?.aborted).toBe(true);
  expect(await withCeiling(async () => 7, 1_000)).toBe(7);
});
