/**
 * The figures a progress display shows for `analyze`, pure so they are tested without a terminal:
 * frames/s over this invocation (a resumed run's earlier frames cost nothing here), × real time
 * (seconds of video per second of wall time), and the time left at the current speed.
 */
export interface ProgressInput {
  /** Frames done in all (including those a resumed run found already done). */
  doneFrames: number;
  /** Frames done when this invocation started tracking (0, or what a resume kept). */
  startFrames: number;
  /** Frames in the video (0 when unknown: no ETA). */
  totalFrames: number;
  /** Wall seconds since this invocation started tracking. */
  elapsedS: number;
  /** Video seconds covered since this invocation started tracking. */
  videoS: number;
}

export interface ProgressFigures {
  fps: number;
  realtime: number;
  /** Seconds left, or NaN when unknown. */
  etaS: number;
}

export function progressFigures(p: ProgressInput): ProgressFigures {
  const n = p.doneFrames - p.startFrames;
  if (!(p.elapsedS > 0) || n <= 0) return { fps: 0, realtime: 0, etaS: NaN };
  const fps = n / p.elapsedS;
  const realtime = p.videoS / p.elapsedS;
  const left = p.totalFrames - p.doneFrames;
  return { fps, realtime, etaS: p.totalFrames > 0 ? Math.max(0, left) / fps : NaN };
}

/** "1:02:03" / "4:05" / "--" for a duration in seconds. */
export function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return '--';
  const t = Math.round(s);
  const h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
  return h ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}` : `${m}:${String(sec).padStart(2, '0')}`;
}
