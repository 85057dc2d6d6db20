/**
 * Frames to image files, and JPEG compression as an image degradation (training frames should show
 * the block artefacts real streams have). sharp is the only image codec here.
 */
import sharp from 'sharp';
import type { RenderedFrame } from './index.js';

const raw = (f: Pick<RenderedFrame, 'width' | 'height'>) => ({ raw: { width: f.width, height: f.height, channels: 3 as const } });

/** Write a frame as PNG (lossless) or, when `jpegQuality` is given, JPEG at that quality (1–100). */
export async function writeFrameImage(path: string, frame: Pick<RenderedFrame, 'width' | 'height' | 'rgb'>, jpegQuality?: number): Promise<void> {
  const img = sharp(Buffer.from(frame.rgb.buffer, frame.rgb.byteOffset, frame.rgb.length), raw(frame));
  if (jpegQuality === undefined) await img.png({ compressionLevel: 3 }).toFile(path);
  else await img.jpeg({ quality: Math.round(jpegQuality), chromaSubsampling: '4:2:0' }).toFile(path);
}

/** JPEG-compress and decode again: the frame as a detector would see it after a JPEG stage. */
export async function jpegRoundTrip(frame: Pick<RenderedFrame, 'width' | 'height' | 'rgb'>, quality: number): Promise<Uint8Array> {
  const jpg = await sharp(Buffer.from(frame.rgb.buffer, frame.rgb.byteOffset, frame.rgb.length), raw(frame))
    .jpeg({ quality: Math.round(quality), chromaSubsampling: '4:2:0' })
    .toBuffer();
  const { data, info } = await sharp(jpg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== frame.width || info.height !== frame.height || info.channels !== 3) {
    throw new Error(`JPEG round trip changed the frame shape to ${info.width}×${info.height}×${info.channels}`);
  }
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}
