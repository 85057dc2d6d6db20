/** The CLI: commands are added here and live one per file. */
import { Command } from 'commander';
import { refereeCommand } from './referee.js';

export function buildProgram(): Command {
  const program = new Command('cueref')
    .description('Computer-vision referee for cue sports: snooker, 8-ball pool and Novus, camera to calls.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)');
  program.addCommand(refereeCommand());
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
