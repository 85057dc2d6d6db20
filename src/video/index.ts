/** video/: frames in (files, images, sequences, live streams), clips out. Import from here. */
export type { Frame, FrameSource, SourceInfo, SourceKind, VideoLog } from './types.js';
export { openSource, classifyUri } from './source.js';
export type { SourceOptionsInput as SourceOptions } from './options.js';
export { probe, type ProbeInfo, type VideoStreamInfo, type AudioStreamInfo } from './probe.js';
export { drawOverlay, type Shape, type Rgb, type Point } from './overlay.js';
export { writeClip, type ClipOptions, type ClipResult } from './clip.js';
export { createMp4Writer, type Mp4Writer, type Mp4WriterOptions } from './encode.js';
