/**
 * Words for stroke events, shared by everything a person reads: the report's stroke table, the
 * review page's event list and queue, the live scoreboard. One wording, one place.
 */
import type { StrokeEvent } from '../core/contracts/strokes.js';

/** One line a person reads for an event: "white hits red3", "red3 potted TL". */
export function eventLabel(e: StrokeEvent): string {
  switch (e.type) {
    case 'strike':
      return `strike ${e.ball}`;
    case 'contact':
      return `${e.a} hits ${e.b}`;
    case 'cushion':
      return `${e.ball} hits the ${e.side} cushion`;
    case 'pot':
      return `${e.ball} potted ${e.pocket}`;
    case 'offTable':
      return `${e.ball} off the table`;
    case 'place':
      return `${e.ball} placed at (${Math.round(e.x)}, ${Math.round(e.y)}) mm`;
    case 'touch':
      return `${e.ball} touched by ${e.by}`;
    case 'foul':
      return `foul ${e.code}${e.ball ? ` (${e.ball})` : ''}`;
    case 'miss':
      return e.called ? 'miss called' : 'no miss';
    case 'jump':
      return `${e.ball} jumps${e.over ? ` over ${e.over}` : ''}`;
    case 'hanging':
      return `${e.ball} hanging over ${e.pocket}`;
    case 'cross':
      return `${e.ball} crosses ${e.line} ${e.dir}`;
    default: {
      const rest = Object.entries(e)
        .filter(([k]) => k !== 't' && k !== 'type' && k !== 'conf')
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(', ');
      return rest ? `${e.type} (${rest})` : e.type;
    }
  }
}
