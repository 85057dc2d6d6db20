/**
 * The vocabulary of video/: what a frame is and what every frame source promises.
 * Downstream stages (calibration, detection, tracking) only ever see `Frame`; nothing about
 * ffmpeg, sharp or sockets leaks out of this folder.
 */

/** One decoded picture, packed RGB (3 bytes per pixel, rows top to bottom, no padding). */
export interface Frame {
  /**
   * Position in the source's decoded order, from 0. Files and sequences number every frame they
   * yield consecutively; live sources number every frame *decoded*, so frames dropped by the
   * bounded queue leave visible gaps (index 7 followed by 10 means 8 and 9 were dropped).
   */
  index: number;
  /**
   * Presentation time in milliseconds from the start of the recording: the container's own
   * timestamp (variable frame rates keep their real spacing), not `index / fps`.
   * Strictly increasing within a source.
   */
  ptsMs: number;
  width: number;
  height: number;
  /** width * height * 3 bytes. The buffer belongs to the consumer: sources never reuse it. */
  rgb: Uint8Array;
}

export type SourceKind = 'file' | 'image' | 'sequence' | 'live';

/** What is known about a source before its first frame. */
export interface SourceInfo {
  kind: SourceKind;
  uri: string;
  /**
   * Size of the frames this source will yield (after scaling and rotation), when known up front.
   * Live sources learn it from the first frame: 0 until then. Frames always carry their real size.
   */
  width: number;
  height: number;
  /** Nominal frame rate (container average, or the sequence rate you gave); undefined for live. */
  fps?: number;
  /** Length of the selected span (after start/end) in ms; undefined for live sources. */
  durationMs?: number;
  /** Frames the source expects to yield (images, sequences); undefined for video. */
  frameCount?: number;
}

/** Sink for the one-line messages sources emit (drops, reconnects, damaged input). */
export type VideoLog = (line: string) => void;

export const stderrLog: VideoLog = (line) => {
  process.stderr.write(`cueref video: ${line}\n`);
};

/**
 * A stream of frames. Iterate it once with `for await`; leaving the loop early (break, throw)
 * stops the decoder and frees its process. `close()` does the same from outside the loop.
 */
export interface FrameSource extends AsyncIterable<Frame> {
  readonly info: SourceInfo;
  /**
   * Problems that did not stop decoding (damaged packets, a truncated file, dropped live frames
   * summary), in order. Each one was also sent to the log.
   */
  readonly warnings: readonly string[];
  close(): Promise<void>;
  /**
   * The caller is done with this frame's pixels: the source may decode a later frame into the
   * same buffer. Calling it is optional; it is a promise from the caller — after it, `frame.rgb` must not be
   * read again. Saves a 2.7 MB allocation per 720p frame (splitter.ts, BufferPool).
   */
  release(frame: Frame): void;
}
