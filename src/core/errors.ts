/**
 * Errors with stable codes. `InputError` is bad user input (a malformed log, a missing file, no
 * table in view): the CLI prints its message and exits 2. Anything else is a bug and exits 1.
 */
export interface InputErrorInfo {
  /** Stable machine code, e.g. `UNKNOWN_BALL`, `EVENTS_OUT_OF_ORDER`, `FILE_NOT_FOUND`. */
  code: string;
  /** What is wrong and what to do, in one sentence a user can act on. */
  message: string;
  /** Index of the stroke (or frame) concerned, when there is one. */
  stroke?: number;
  frame?: number;
  /** Path of the offending field, e.g. `strokes[3].events[2].t`. */
  field?: string;
}

export class InputError extends Error {
  readonly code: string;
  readonly stroke?: number;
  readonly frame?: number;
  readonly field?: string;

  constructor(info: InputErrorInfo) {
    super(formatInputError(info));
    this.name = 'InputError';
    this.code = info.code;
    if (info.stroke !== undefined) this.stroke = info.stroke;
    if (info.frame !== undefined) this.frame = info.frame;
    if (info.field !== undefined) this.field = info.field;
  }

  toJSON(): InputErrorInfo {
    const { code, stroke, frame, field } = this;
    return { code, message: this.message, stroke, frame, field } as InputErrorInfo;
  }
}

export function formatInputError(info: InputErrorInfo): string {
  const where: string[] = [];
  if (info.stroke !== undefined) where.push(`stroke ${info.stroke}`);
  if (info.frame !== undefined) where.push(`frame ${info.frame}`);
  if (info.field !== undefined) where.push(`field ${info.field}`);
  return `${where.length ? where.join(', ') + ': ' : ''}${info.message} [${info.code}]`;
}
