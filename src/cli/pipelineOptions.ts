/** Options shared by the commands that run the vision chain on a video (`track`, `analyze`; the frame's start also `live`). */
import type { Command } from 'commander';
import { z } from 'zod';
import type { FrameStart } from '../core/contracts/strokes.js';
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

/**
 * A frame joined midway (`analyze`, `live`): the frame's state where the recording begins — the
 * stroke log's `start` fields the cameras cannot see (docs/analyze.md).
 */
export const frameStartSchema = z.object({
  scores: z
    .string()
    .regex(/^\s*\d+\s*,\s*\d+\s*$/, 'two whole scores, player 0 first: e.g. --scores 60,67')
    .transform((v) => v.split(',').map(Number) as [number, number])
    .optional(),
  player: z.enum(['0', '1'], { error: 'the player at the table is 0 or 1' }).transform((v) => Number(v) as 0 | 1).optional(),
  ballOn: z
    .string()
    .regex(/^[a-z]+(,[a-z]+)*$/, 'ball names separated by commas: e.g. --ball-on colour, or --ball-on red')
    .transform((v) => (v.includes(',') ? v.split(',') : v))
    .optional(),
});

export function withFrameStartOptions(cmd: Command): Command {
  return cmd
    .option('--scores <a,b>', "the frame's score where the recording begins, player 0 first (a frame joined midway); default 0,0")
    .option('--player <n>', 'who is at the table where the recording begins: 0 or 1 (default 0)')
    .option('--ball-on <balls>', "snooker, a frame joined midway: what is on at the first stroke (red, colour, or a colour's name); default: what the layout says");
}

/** The `start` fields the options gave, or undefined when none was. */
export function frameStartOf(o: z.infer<typeof frameStartSchema>): FrameStart | undefined {
  const start: FrameStart = { ...(o.scores ? { scores: o.scores } : {}), ...(o.player !== undefined ? { player: o.player } : {}), ...(o.ballOn ? { ballOn: o.ballOn } : {}) };
  return Object.keys(start).length ? start : undefined;
}

/** The options again, for a command line to resume with. */
export function frameStartArgs(start: FrameStart | undefined): string[] {
  if (!start) return [];
  return [start.scores ? `--scores ${start.scores.join(',')}` : '', start.player !== undefined ? `--player ${start.player}` : '', start.ballOn ? `--ball-on ${[start.ballOn].flat().join(',')}` : ''].filter(Boolean);
}
