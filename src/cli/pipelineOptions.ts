/** Options shared by the commands that run the vision chain on a video (`track`, `analyze`). */
import { z } from 'zod';
import { GAMES } from '../core/games.js';

export const pipelineOptionsSchema = z.object({
  game: z.enum(GAMES),
  table: z.string().min(1).optional(),
  calibration: z.string().min(1).optional(),
  out: z.string().min(1),
  model: z.string().min(1).optional(),
  json: z.boolean().optional(),
  progress: z.boolean().default(true),
});
