/** The CLI: commands are added here and live one per file. */
import { Command } from 'commander';
import { refereeCommand } from './referee.js';
import { calibrateCommand } from './calibrate.js';
import { simulateCommand } from './simulate.js';
import { eventsCommand } from './events.js';
import { trackCommand } from './track.js';
import { detectCommand } from './detect.js';
import { analyzeCommand } from './analyze.js';
import { liveCommand } from './live.js';
import { reviewCommand } from './review.js';

export function buildProgram(): Command {
  const program = new Command('cueref')
    .description('Computer-vision referee for cue sports: snooker, 8-ball pool and Novus, camera to calls.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)');
  program.addCommand(refereeCommand());
  program.addCommand(calibrateCommand());
  program.addCommand(simulateCommand());
  program.addCommand(eventsCommand());
  program.addCommand(trackCommand());
  program.addCommand(detectCommand());
  program.addCommand(analyzeCommand());
  program.addCommand(liveCommand());
  program.addCommand(reviewCommand());
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
