/**
 * Playing a scenario: stroke after stroke on one table, with placements, respots, injected
 * events and the physics in between, into a `Recording` — the exact history the truth writers
 * (../truth.ts) sample into cueref.tracks/1 and cueref.strokes/1.
 *
 * Timeline of stroke k: at `tStart` hands put balls on the table (cue ball in hand, respots,
 * replacements, a touched ball moves); at `tStrike` the cue strikes; at `tRest` the last ball
 * stops; `afterRestS` later the next stroke starts.
 */
import type { CallsDoc } from '../../core/contracts/calls.js';
import type { Stroke, StrokeEvent, StrokeLog } from '../../core/contracts/strokes.js';
import { InputError, type InputErrorInfo } from '../../core/errors.js';
import type { GameId } from '../../core/games.js';
import type { Result } from '../../core/result.js';
import { defaultProfileFor, loadTableProfile, parseTableProfile, type TableProfile } from '../../core/table.js';
import { buildTableGeom, defaultPhysics, simulate, strikeBall, type BallState, type Exit, type PhysicsParams, type Sample, type StrokeRun, type TableGeom } from '../physics/index.js';
import { makeBalls } from './balls.js';
import { aimAngleRad, type Pos } from './aim.js';
import { findStroke, type FoundStroke } from './finder.js';
import { allBallIds, cueBallId, defaultCueBallPlace, radiusOf, SNOOKER_COLOURS, spot, standardLayout } from './layouts.js';
import { respotPosition } from './respot.js';
import type { Scenario, ScenarioStroke } from './schema.js';

/** A referee to consult between strokes (for respots); `refereeLog` from src/rules/registry.ts. */
export type RefereeFn = (log: unknown, table: TableProfile) => Result<CallsDoc, InputErrorInfo>;

export interface RunOptions {
  /** Physics samples are taken on the grid k·sampleDtS (global time); 0 = none (fast runs). */
  sampleDtS?: number;
  referee?: RefereeFn | null;
  warn?: (message: string) => void;
}

/** A ball moved by hand between tStart and the strike (drawn as a short slide by the renderer). */
export interface HandMove {
  ball: string;
  t: number;
  /** Where it was (absent: it came from off the table). */
  from?: { x: number; y: number };
  x: number;
  y: number;
  kind: 'place' | 'touch';
}

export interface SimStroke {
  index: number;
  tStart: number;
  tStrike: number;
  tRest: number;
  strikeBall: string;
  angleRad: number;
  speedMmPerS: number;
  spin: { top: number; side: number };
  before: Pos[];
  moves: HandMove[];
  run: StrokeRun;
  rest: Pos[];
  /** Orientation of every ball at rest after this stroke (the renderer keeps numbers where they stopped). */
  restOrient: Record<string, [number, number, number, number]>;
  /** The stroke as it goes into the truth log (cueref.strokes/1). */
  stroke: Stroke;
  found?: FoundStroke;
}

export interface Recording {
  scenario: Scenario;
  game: GameId;
  table: TableProfile;
  geom: TableGeom;
  physics: PhysicsParams;
  /** Balls on the table before the first stroke's placements. */
  initial: Pos[];
  strokes: SimStroke[];
  durationS: number;
  sampleDtS: number;
  /** The truth stroke log (cueref.strokes/1). */
  log: StrokeLog;
  /** The referee's calls on the whole log, when a referee was given. */
  calls?: Result<CallsDoc, InputErrorInfo>;
  warnings: string[];
}

export function resolveTable(s: Scenario): TableProfile {
  let table: TableProfile;
  if (s.table === undefined) table = defaultProfileFor(s.game);
  else if (typeof s.table === 'string') table = loadTableProfile(s.table);
  else table = parseTableProfile(s.table, "the scenario's table");
  if (table.game !== s.game) throw new InputError({ code: 'TABLE_GAME_MISMATCH', field: 'table', message: `the table profile is for ${table.game} but the scenario plays ${s.game}` });
  return table;
}

export function runScenario(s: Scenario, opts: RunOptions = {}): Recording {
  const table = resolveTable(s);
  const geom = buildTableGeom(table);
  const physics: PhysicsParams = { ...defaultPhysics(s.game), ...(s.physics ?? {}) };
  const warnings: string[] = [];
  const warn = (m: string) => {
    warnings.push(m);
    opts.warn?.(m);
  };
  const sampleDtS = opts.sampleDtS ?? 0;
  const known = new Set(allBallIds(s.game));
  const cueId = cueBallId(s.game);
  const seed = s.seed ?? 0;

  // Opening position.
  let pos = new Map<string, { x: number; y: number }>();
  if (s.start.balls === 'standard') {
    const lay = standardLayout(s.game, table, { seed, ...(s.start.pyramidGapMm !== undefined ? { pyramidGapMm: s.start.pyramidGapMm } : {}), ...(s.start.rackGapMm !== undefined ? { rackGapMm: s.start.rackGapMm } : {}) });
    for (const b of lay) pos.set(b.id, { x: b.x, y: b.y });
  } else {
    s.start.balls.forEach((b, i) => {
      if (!known.has(b.id)) throw new InputError({ code: 'UNKNOWN_BALL', field: `start.balls[${i}].id`, message: `'${b.id}' is not a ${s.game} ball (${describeIds(s.game)})` });
      if (pos.has(b.id)) throw new InputError({ code: 'DUPLICATE_BALL', field: `start.balls[${i}].id`, message: `'${b.id}' is listed twice` });
      pos.set(b.id, { x: b.x, y: b.y });
    });
  }
  for (const id of s.start.remove ?? []) {
    if (!pos.delete(id)) throw new InputError({ code: 'UNKNOWN_BALL', field: 'start.remove', message: `'${id}' is not in the opening layout` });
  }
  s.start.move?.forEach((m, i) => {
    if (!known.has(m.id)) throw new InputError({ code: 'UNKNOWN_BALL', field: `start.move[${i}].id`, message: `'${m.id}' is not a ${s.game} ball (${describeIds(s.game)})` });
    pos.set(m.id, { x: m.x, y: m.y });
  });
  checkPositions(table, pos, 'start', undefined);
  const initial = toList(pos);

  const orient = new Map<string, [number, number, number, number]>();
  const strokes: SimStroke[] = [];
  const logStrokes: Stroke[] = [];
  const start: NonNullable<StrokeLog['start']> = { balls: s.start.balls === 'standard' && !s.start.remove && !s.start.move ? 'standard' : initial.map((b) => ({ ...b })) };
  for (const k of ['player', 'scores', 'ballOn', 'redsLeft', 'inHand'] as const) if (s.start[k] !== undefined) (start as Record<string, unknown>)[k] = s.start[k];
  const log: StrokeLog = { format: 'cueref.strokes/1', game: s.game, start, strokes: logStrokes };
  if (s.variant) log.variant = s.variant;
  if (s.players) log.players = s.players;
  if (s.config) log.config = s.config;
  if (s.table !== undefined) log.table = table;
  let lastCalls: Result<CallsDoc, InputErrorInfo> | undefined;
  let carried: BallState[] | undefined;
  let t = s.timing.leadInS;

  s.strokes.forEach((st, k) => {
    const where = `strokes[${k}]`;
    // Struck early: at a fixed time after the previous strike, while balls may still move.
    const early = st.strikeAfterS !== undefined && k > 0;
    const tStart = early ? strokes[k - 1]!.tStrike + st.strikeAfterS! : t;
    const tStrike = early ? tStart : tStart + s.timing.placeToStrikeS;
    const moves: HandMove[] = [];
    const extra: StrokeEvent[] = [];
    const player = st.player ?? (s.game === 'novus' ? (k % 2 === 0 ? (s.start.player ?? 0) : (1 - (s.start.player ?? 0)) as 0 | 1) : undefined);
    const place = (ball: string, x: number, y: number, kind: 'place' | 'touch', dt: number) => {
      const from = pos.get(ball);
      const m: HandMove = { ball, t: tStart + dt, x, y, kind };
      if (from) m.from = { ...from };
      moves.push(m);
      pos.set(ball, { x, y });
    };

    // 1. Balls put back: a restore after a miss, or the colours the referee respots.
    if (st.decision === 'replace' && k > 0) {
      const prev = strokes[k - 1]!;
      const keep = new Map(prev.before.map((b) => [b.id, b]));
      for (const id of [...pos.keys()]) if (!keep.has(id)) pos.delete(id);
      for (const b of prev.before) {
        const cur = pos.get(b.id);
        if (!cur || Math.hypot(cur.x - b.x, cur.y - b.y) > 0.01) {
          place(b.id, b.x, b.y, 'place', 0);
          extra.push({ t: tStart, type: 'place', ball: b.id, x: b.x, y: b.y });
        }
      }
    } else if (k > 0 && s.game === 'snooker' && !early) {
      for (const r of respotsFor(st, k, lastCalls, strokes[k - 1]!, pos, table, warn)) {
        place(r.ball, r.x, r.y, 'place', 0);
        extra.push({ t: tStart, type: 'place', ball: r.ball, x: r.x, y: r.y });
      }
    }

    // 2. Injected handling: touches, placements, removals.
    st.inject?.forEach((inj, j) => {
      const f = `${where}.inject[${j}]`;
      if (!known.has(inj.ball)) throw new InputError({ code: 'UNKNOWN_BALL', stroke: k, field: `${f}.ball`, message: `'${inj.ball}' is not a ${s.game} ball` });
      if (inj.type === 'touch') {
        const cur = pos.get(inj.ball);
        if (!cur) throw new InputError({ code: 'BALL_NOT_ON_TABLE', stroke: k, field: `${f}.ball`, message: `'${inj.ball}' is not on the table to be touched` });
        const dx = inj.moveMm?.x ?? 0, dy = inj.moveMm?.y ?? 0;
        place(inj.ball, cur.x + dx, cur.y + dy, 'touch', 0.15);
        extra.push({ t: tStart + 0.15, type: 'touch', ball: inj.ball, by: inj.by });
      } else if (inj.type === 'place') {
        let x = inj.x, y = inj.y;
        if (inj.spot !== undefined) {
          if (!table.spots[inj.spot]) throw new InputError({ code: 'UNKNOWN_SPOT', stroke: k, field: `${f}.spot`, message: `no spot '${inj.spot}' on this table (${Object.keys(table.spots).join(', ')})` });
          ({ x, y } = spot(table, inj.spot));
        }
        if (x === undefined || y === undefined) throw new InputError({ code: 'BAD_SCENARIO', stroke: k, field: f, message: 'a place injection needs `spot` or both `x` and `y`' });
        place(inj.ball, x, y, 'place', 0.1);
        extra.push({ t: tStart + 0.1, type: 'place', ball: inj.ball, x, y });
      } else if (inj.type === 'remove') {
        pos.delete(inj.ball);
      }
    });

    // 3. The striking ball: in hand when off the table, and a Novus striker is placed every stroke.
    const strikeId = st.strikeBall ?? cueId;
    if (!known.has(strikeId)) throw new InputError({ code: 'UNKNOWN_BALL', stroke: k, field: `${where}.strikeBall`, message: `'${strikeId}' is not a ${s.game} ball` });
    if (strikeId === cueId && !early && (!pos.has(cueId) || st.place || s.game === 'novus')) {
      const p = st.place ?? defaultCueBallPlace(s.game, table, player ?? 0);
      place(cueId, p.x, p.y, 'place', 0.05);
      extra.push({ t: tStart + 0.05, type: 'place', ball: cueId, x: p.x, y: p.y });
    }
    if (!pos.has(strikeId)) throw new InputError({ code: 'BALL_NOT_ON_TABLE', stroke: k, field: `${where}.strikeBall`, message: `'${strikeId}' is not on the table at this stroke` });
    checkPositions(table, pos, where, k);

    // 4. Aim (or find) and strike.
    const before = toList(pos);
    // An early strike continues the previous stroke's motion; otherwise every ball starts at rest.
    const balls = early && carried ? carried.filter((b) => b.where === 'bed').map((b) => ({ ...b, q: [...b.q] as [number, number, number, number] })) : makeBalls(before, table, physics, orient);
    const striker = balls.find((b) => b.id === strikeId)!;
    let angleRad: number, speedMmPerS: number, spin = { top: 0, side: 0 };
    let found: FoundStroke | undefined;
    if (st.find) {
      const f = findStroke({ table, geom, physics, balls: before, strikeId, game: s.game }, st.find);
      if (!f) throw new InputError({ code: 'NO_STROKE_FOUND', stroke: k, field: `${where}.find`, message: `the stroke finder found no stroke for this goal in ${st.find.speedsMmPerS?.length ?? 'the default'} speeds × spins × cut angles: widen cutRangeDeg, add speeds or spins, or change the position` });
      found = f;
      angleRad = f.angleRad;
      speedMmPerS = f.speedMmPerS;
      spin = f.spin;
    } else {
      const aimBall = 'ball' in st.aim! ? st.aim.ball : undefined;
      angleRad = aimAngleRad(st.aim!, { id: strikeId, ...pos.get(strikeId)! }, before, table, striker.radiusMm, aimBall ? radiusOf(table, aimBall) : table.ballDiameter / 2, `${where}.aim`);
      speedMmPerS = st.speedMmPerS!;
      if (st.spin) spin = { top: st.spin.top, side: st.spin.side };
    }
    if (physics.discs && (spin.top !== 0 || spin.side !== 0)) warn(`stroke ${k}: spin is ignored for Novus discs`);
    strikeBall(striker, { angleRad, speedMmPerS, top: spin.top, side: spin.side }, physics.discs, physics.squirtDegAtFullSide);
    const script: Parameters<typeof simulate>[3]['script'] = {};
    if (st.jumpOver) script.jumpOver = { ball: strikeId, over: st.jumpOver };
    if (st.jumpOff) script.jumpOff = st.jumpOff.map((j) => ({ ball: j.ball, atCushion: j.atCushion }));
    // Two sample grids: the frames' (for the tracks and the renderer, only when asked) and the
    // paths' (every PATH_DT_S of global time, always, so the truth log does not depend on fps).
    const horizon = tStrike + physics.maxStrokeS + 1;
    const frameTimes = sampleDtS > 0 ? gridTimes(tStrike, horizon, sampleDtS) : [];
    const pathTimes = gridTimes(tStrike, horizon, PATH_DT_S);
    const sampleTimes = [...new Set([...frameTimes, ...pathTimes])].sort((a, b) => a - b);
    const nextEarly = s.strokes[k + 1]?.strikeAfterS;
    const run = simulate(balls, geom, physics, { t0: tStrike, sampleTimes, script, ...(nextEarly !== undefined ? { stopAtT: tStrike + nextEarly } : {}) });
    carried = balls;
    const byTime = new Map(run.samples.map((x) => [x.t, x]));
    const pathSamples = pathTimes.flatMap((x) => byTime.get(x) ?? []);
    run.samples = frameTimes.flatMap((x) => byTime.get(x) ?? []);
    if (run.stoppedEarly) warn(`stroke ${k}: balls still moving after ${physics.maxStrokeS} s; stopped there`);
    // Balls hanging over a pocket edge that drop once everything has stopped.
    for (const inj of st.inject ?? []) {
      if (inj.type !== 'drop') continue;
      const b = balls.find((x) => x.id === inj.ball && x.where === 'bed');
      if (!b) {
        warn(`stroke ${k}: '${inj.ball}' is not on the table when the balls stop, so it cannot drop into ${inj.pocket}`);
        continue;
      }
      const tDrop = run.endT + inj.afterRestS;
      run.events.push({ t: run.endT, type: 'hanging', ball: b.id, pocket: inj.pocket }, { t: tDrop, type: 'pot', ball: b.id, pocket: inj.pocket });
      run.exits.push({ id: b.id, t: tDrop, x: b.x, y: b.y, vx: 0, vy: 0, kind: 'pot', pocket: inj.pocket });
      b.where = 'pocketed';
      run.endT = Math.max(run.endT, tDrop);
    }
    for (const b of balls) orient.set(b.id, b.q);
    pos = new Map(balls.filter((b) => b.where === 'bed').map((b) => [b.id, { x: b.x, y: b.y }]));
    const rest = toList(pos);
    const tRest = Math.max(run.endT, tStrike);

    // 5. The contract stroke.
    const events: StrokeEvent[] = [...extra, { t: tStrike, type: 'strike', ball: strikeId }];
    for (const e of run.events) events.push({ ...e } as StrokeEvent);
    for (const e of st.events ?? []) events.push({ ...e, t: Math.max(0, tStrike + e.t) } as StrokeEvent);
    events.sort((a, b) => a.t - b.t);
    const stroke: Stroke = { t: tStrike, before: before.map((b) => ({ ...b })), events, rest };
    if (player !== undefined) stroke.player = player;
    for (const key of ['nominated', 'calledBall', 'calledPocket', 'decision', 'touching'] as const) if (st[key] !== undefined) (stroke as Record<string, unknown>)[key] = st[key];
    const paths = pathsOf(pathSamples, run.exits);
    if (early) {
      // The last 0.2 s of the interrupted stroke's paths: the evidence that balls still moved.
      for (const [id, pts] of Object.entries(strokes[k - 1]!.stroke.paths ?? {})) {
        const first = paths[id]?.[0]?.[0] ?? Infinity;
        const tail = pts.filter(([pt]) => pt >= tStrike - 0.2 && pt < Math.min(first, round(tStrike, 4)) - 1e-9);
        if (tail.length) paths[id] = [...tail, ...(paths[id] ?? [])];
      }
    }
    if (Object.keys(paths).length) stroke.paths = paths;
    logStrokes.push(stroke);
    const restOrient = Object.fromEntries(balls.filter((b) => b.where === 'bed').map((b) => [b.id, [...b.q] as [number, number, number, number]]));
    const sim: SimStroke = { index: k, tStart, tStrike, tRest, strikeBall: strikeId, angleRad, speedMmPerS, spin, before, moves, run, rest, restOrient, stroke };
    if (found) sim.found = found;
    strokes.push(sim);
    if (opts.referee) lastCalls = opts.referee(log, table);
    t = tRest + s.timing.afterRestS;
  });

  const rec: Recording = { scenario: s, game: s.game, table, geom, physics, initial, strokes, durationS: t - s.timing.afterRestS + s.timing.tailS, sampleDtS, log, warnings };
  if (lastCalls) rec.calls = lastCalls;
  return rec;
}

function describeIds(game: GameId): string {
  return game === 'snooker' ? 'white, red1…red15, yellow, green, brown, blue, pink, black' : game === 'pool8' ? 'cue, 1…15' : 'striker, a1…a8, b1…b8';
}

function toList(pos: Map<string, { x: number; y: number }>): Pos[] {
  return [...pos].map(([id, p]) => ({ id, x: p.x, y: p.y })).sort((a, b) => idOrder(a.id) - idOrder(b.id) || (a.id < b.id ? -1 : 1));
}

const ORDER = new Map<string, number>();
for (const g of ['snooker', 'pool8', 'novus'] as const) allBallIds(g).forEach((id, i) => ORDER.set(id, i));
function idOrder(id: string): number {
  return ORDER.get(id) ?? 999;
}

/** Every ball on the bed, inside the cushions, and no two overlapping (0.05 mm tolerance). */
function checkPositions(table: TableProfile, pos: Map<string, { x: number; y: number }>, where: string, stroke: number | undefined): void {
  const list = [...pos];
  for (const [id, p] of list) {
    const r = radiusOf(table, id);
    if (p.x < r - 0.05 || p.x > table.bed.width - r + 0.05 || p.y < r - 0.05 || p.y > table.bed.length - r + 0.05) {
      const info: InputErrorInfo = { code: 'BALL_OFF_BED', field: where, message: `'${id}' at (${p.x.toFixed(1)}, ${p.y.toFixed(1)}) is not on the bed: its centre must be at least R = ${r} mm inside the ${table.bed.width} × ${table.bed.length} cushions` };
      if (stroke !== undefined) info.stroke = stroke;
      throw new InputError(info);
    }
  }
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const [a, pa] = list[i]!, [b, pb] = list[j]!;
      const gap = Math.hypot(pa.x - pb.x, pa.y - pb.y) - radiusOf(table, a) - radiusOf(table, b);
      if (gap < -0.05) {
        const info: InputErrorInfo = { code: 'BALLS_OVERLAP', field: where, message: `'${a}' and '${b}' overlap by ${(-gap).toFixed(2)} mm; move one of them` };
        if (stroke !== undefined) info.stroke = stroke;
        throw new InputError(info);
      }
    }
  }
}

function gridTimes(from: number, to: number, dt: number): number[] {
  const out: number[] = [];
  for (let k = Math.ceil(from / dt - 1e-9); k * dt <= to; k++) out.push(k * dt);
  return out;
}

/** Path samples of the truth log, s of global time. */
const PATH_DT_S = 0.02;

/** Paths of the balls that moved: every PATH_DT_S while on the bed, then where they left it. */
function pathsOf(samples: readonly Sample[], exits: readonly Exit[]): Record<string, [number, number, number][]> {
  const out: Record<string, [number, number, number][]> = {};
  const moved = new Set<string>();
  for (const smp of samples) for (const b of smp.balls) if (b.vx !== 0 || b.vy !== 0) moved.add(b.id);
  for (const e of exits) moved.add(e.id);
  for (const id of [...moved].sort()) {
    const pts: [number, number, number][] = [];
    for (const smp of samples) {
      const b = smp.balls.find((x) => x.id === id);
      if (b && b.where === 'bed') pts.push([round(smp.t, 4), round(b.x, 2), round(b.y, 2)]);
    }
    const ex = exits.find((e) => e.id === id);
    if (ex) pts.push([round(ex.t, 4), round(ex.x, 2), round(ex.y, 2)]);
    if (pts.length) out[id] = pts;
  }
  return out;
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

interface Respot {
  ball: string;
  x: number;
  y: number;
}

function respotsFor(st: ScenarioStroke, k: number, calls: Result<CallsDoc, InputErrorInfo> | undefined, prev: SimStroke, pos: Map<string, { x: number; y: number }>, table: TableProfile, warn: (m: string) => void): Respot[] {
  if (st.respot === 'none') return [];
  if (Array.isArray(st.respot)) return st.respot.map((r) => ({ ball: r.ball, x: r.x, y: r.y }));
  if (calls?.ok) {
    const c = calls.value.calls[k - 1];
    const list = (c?.respot as { ball: string; x: number; y: number }[] | undefined) ?? [];
    return list.filter((r) => !pos.has(r.ball)).map((r) => ({ ball: r.ball, x: r.x, y: r.y }));
  }
  if (calls && !calls.ok) warn(`stroke ${k}: the referee could not judge stroke ${k - 1} (${calls.error.message}); respotting colours by the simulator's own rule`);
  // Fallback rule: colours off the table go back, except the lowest colour potted in the colours
  // sequence by a clean stroke (first contact on it, cue ball not potted).
  const off = prev.run.exits.map((e) => e.id).filter((id) => (SNOOKER_COLOURS as readonly string[]).includes(id));
  const redsBefore = prev.before.filter((b) => b.id.startsWith('red')).length;
  const lowest = SNOOKER_COLOURS.find((c) => prev.before.some((b) => b.id === c));
  const first = prev.run.events.find((e) => e.type === 'contact' && (e.a === prev.strikeBall || e.b === prev.strikeBall));
  const firstId = first && first.type === 'contact' ? (first.a === prev.strikeBall ? first.b : first.a) : undefined;
  const cueDown = prev.run.exits.some((e) => e.id === prev.strikeBall);
  const out: Respot[] = [];
  const others = () => [...pos].map(([id, p]) => ({ id, ...p }));
  for (const id of [...off].sort((a, b) => SNOOKER_COLOURS.indexOf(b as never) - SNOOKER_COLOURS.indexOf(a as never))) {
    const stays = redsBefore === 0 && id === lowest && firstId === id && !cueDown && prev.run.exits.filter((e) => e.kind === 'pot').length === 1;
    if (stays) continue;
    const p = respotPosition(table, id, others());
    out.push({ ball: id, x: p.x, y: p.y });
    pos.set(id, { x: p.x, y: p.y });
  }
  for (const r of out) pos.delete(r.ball); // `place` re-adds them with their move record
  return out;
}
