/**
 * The one FrameSource implementation every kind of input wraps its frame generator in:
 * single-use iteration and a `close()` that works from outside the loop.
 */
import type { Frame, FrameSource, SourceInfo } from './types.js';

/**
 * Wrap a frame generator as a single-use FrameSource. `close()` ends an iteration in progress
 * (`onClose` interrupts a generator blocked on I/O, then the generator's own cleanup runs) or
 * prevents one from starting. `release` takes a frame the caller is done with (a decoder's
 * `BufferPool.give`); without one, releasing does nothing.
 */
export function makeFrameSource(
  info: SourceInfo,
  warnings: string[],
  frames: () => AsyncGenerator<Frame, void, void>,
  onClose?: () => void,
  release?: (frame: Frame) => void,
): FrameSource {
  let active: AsyncGenerator<Frame, void, void> | undefined;
  let used = false;
  let closed = false;
  return {
    info,
    warnings,
    [Symbol.asyncIterator](): AsyncIterator<Frame> {
      if (used) throw new Error(`frame source '${info.uri}' can be iterated only once: open it again to re-read`);
      used = true;
      if (closed) return (async function* () {})();
      active = frames();
      return active;
    },
    release(frame: Frame): void {
      release?.(frame);
    },
    async close(): Promise<void> {
      closed = true;
      onClose?.();
      await active?.return(undefined);
    },
  };
}
