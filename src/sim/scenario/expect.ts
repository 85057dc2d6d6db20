/**
 * Checking a played scenario against the `expect` blocks of its strokes: the physics outcome
 * (pots, first contact, balls off the table) always, the referee's call (fouls, legality, free
 * ball, snookered, frame over) when the recording carries calls. The scenario library's test and
 * `cueref simulate` (as warnings) use it, so a sample that stops doing what it says is caught.
 */
import type { Recording } from './run.js';

export interface ExpectFailure {
  stroke: number;
  what: string;
}

export function checkExpectations(rec: Recording, opts: { calls?: boolean } = {}): ExpectFailure[] {
  const out: ExpectFailure[] = [];
  const calls = rec.calls?.ok ? rec.calls.value.calls : undefined;
  rec.scenario.strokes.forEach((st, k) => {
    const ex = st.expect;
    const sim = rec.strokes[k];
    if (!ex || !sim) return;
    const fail = (what: string) => out.push({ stroke: k, what });
    const pots = sim.run.exits.filter((e) => e.kind === 'pot');
    for (const p of ex.pots ?? []) {
      const hit = pots.find((e) => e.id === p.ball);
      if (!hit) fail(`expected ${p.ball} potted${p.pocket ? ` in ${p.pocket}` : ''}; potted: ${pots.map((e) => `${e.id}→${e.pocket}`).join(', ') || 'none'}`);
      else if (p.pocket && hit.pocket !== p.pocket) fail(`expected ${p.ball} in ${p.pocket}, it went into ${hit.pocket}`);
    }
    if (ex.onlyThese) {
      const allowed = new Set((ex.pots ?? []).map((p) => p.ball));
      const extra = pots.filter((e) => !allowed.has(e.id));
      if (extra.length) fail(`unexpected pots: ${extra.map((e) => `${e.id}→${e.pocket}`).join(', ')}`);
    }
    if (ex.firstContact !== undefined) {
      const first = sim.run.events.find((e) => e.type === 'contact' && (e.a === sim.strikeBall || e.b === sim.strikeBall));
      const id = first && first.type === 'contact' ? (first.a === sim.strikeBall ? first.b : first.a) : null;
      if (id !== ex.firstContact) fail(`expected first contact ${ex.firstContact ?? 'none'}, got ${id ?? 'none'}`);
    }
    for (const b of ex.offTable ?? []) if (!sim.run.exits.some((e) => e.kind === 'offTable' && e.id === b)) fail(`expected ${b} off the table`);
    if (opts.calls === false || !calls) return;
    const c = calls[k];
    if (!c) return;
    if (ex.fouls) {
      const got = c.fouls.map((f) => f.code);
      for (const f of ex.fouls) if (!got.includes(f)) fail(`expected foul ${f}; the referee called ${got.join(', ') || 'no foul'}`);
      if (ex.fouls.length === 0 && got.length) fail(`expected no foul; the referee called ${got.join(', ')}`);
    }
    if (ex.legal !== undefined && c.legal !== ex.legal) fail(`expected legal=${ex.legal}, the referee said ${c.legal}`);
    for (const r of ex.respot ?? []) {
      const got = (c.respot as { ball: string; spot: string }[] | undefined)?.find((x) => x.ball === r.ball);
      if (!got) fail(`expected the referee to respot ${r.ball}`);
      else if (r.spot && got.spot !== r.spot) fail(`expected ${r.ball} respotted on the ${r.spot} spot, the referee chose ${got.spot}`);
    }
    for (const key of ['freeBall', 'snookered', 'frameOver', 'miss'] as const) {
      if (ex[key] !== undefined && c[key] !== ex[key]) fail(`expected ${key}=${ex[key]}, the referee said ${String(c[key])}`);
    }
  });
  return out;
}
