/**
 * Examiner-style acceptance cases for the Novus referee, written from the rule book
 * (../shared/spec/rules-novus.md, seed 003) rather than from the spec's §13 table. Each case is a
 * minimal hand-entered cueref.strokes/1 log (mostly without `rest`/`before`) run through
 * `refereeLog`, checked on the contract fields of cueref.calls/1. One case goes through the CLI.
 *
 * Board: the default 1000 mm profile (zone lines 100 mm from each edge, side lines 100 mm from the
 * side edges, centre circle r 100, pawn Ø 32 hole r 6, striker Ø 38 hole r 7).
 * Player 0 strikes from y = 0 (own edge `bottom`, far edge `top`); player 1 from y = 1000.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { refereeLog } from '../../src/rules/registry.js';

type Obj = Record<string, unknown>;
type P = [number, number];

/** A's pawns light across y = 700, B's across y = 300 (x = 200, 280, … 760). */
function mid(opts: { without?: string[]; at?: Record<string, P> } = {}): Obj[] {
  const m: Record<string, P> = {};
  for (let k = 0; k < 8; k++) {
    m[`a${k + 1}`] = [200 + 80 * k, 700];
    m[`b${k + 1}`] = [200 + 80 * k, 300];
  }
  for (const id of opts.without ?? []) delete m[id];
  Object.assign(m, opts.at ?? {});
  return Object.entries(m).map(([id, [x, y]]) => ({ id, x, y }));
}

const log = (strokes: Obj[], start: Obj = { player: 0, balls: 'standard' }, extra: Obj = {}) => ({
  format: 'cueref.strokes/1',
  game: 'novus',
  start,
  ...extra,
  strokes,
});

// Hand-entered events.
const place = (t: number, x: number, y: number, ball = 'striker') => ({ t, type: 'place', ball, x, y });
const strike = (t: number) => ({ t, type: 'strike', ball: 'striker' });
const hit = (t: number, b: string, a = 'striker') => ({ t, type: 'contact', a, b });
const cushion = (t: number, side: string, ball = 'striker') => ({ t, type: 'cushion', ball, side });
const pot = (t: number, ball: string, pocket: string) => ({ t, type: 'pot', ball, pocket });
const off = (t: number, ball: string) => ({ t, type: 'offTable', ball });
const cross = (t: number, line: string, dir: string) => ({ t, type: 'cross', ball: 'striker', line, dir });
const foul = (t: number, code: string, player?: 0 | 1) => ({ t, type: 'foul', code, ...(player !== undefined ? { player } : {}) });

/** Player 0 strikes from a legal spot in his zone; player 1 from his. */
const A = (...events: Obj[]) => ({ events: [place(1, 500, 50), strike(2), ...events] });
const B = (...events: Obj[]) => ({ events: [place(1, 450, 940), strike(2), ...events] });

interface Case {
  id: string;
  what: string;
  log: Obj;
  /** Call index to check (default: last). */
  at?: number;
  /** Foul codes that must all be present (exact set when `exactFouls`). */
  fouls?: string[];
  exactFouls?: boolean;
  expect: Obj;
  more?: (calls: Obj[]) => void;
}

const onlyDark = { a1: [200, 50] as P, a2: [300, 40] as P, a3: [750, 50] as P };

const cases: Case[] = [
  // ---- Striker placement (seed 003 rules 12.3–12.5) ----
  {
    id: 'E01',
    what: 'opening: legal placement in the edge zone, direct onto own end pawn, pocketed: series',
    log: log([{ events: [place(1, 640, 55), strike(2), hit(2.5, 'a8'), pot(2.8, 'a8', 'TR')] }]),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, points: 1, penalty: 0, scores: [1, 0], nextPlayer: 0, inHand: true, frameOver: false, winner: null },
  },
  {
    id: 'E02',
    what: 'striker placed on the zone line (line visible through the hole), struck: penalty; nothing pocketed yet → debt',
    log: log([{ events: [place(1, 500, 100), strike(2), hit(2.5, 'a4')] }]),
    fouls: ['BAD_STRIKER_PLACEMENT'],
    expect: { legal: false, penalty: 1, scores: [0, 0], nextPlayer: 1, penaltyDebt: [1, 0], respot: [] },
  },
  {
    id: 'E03',
    what: 'striker set up beyond a side line (towards the pocket), given in start.balls: penalty pawn on the middle of the far edge',
    log: log([{ events: [strike(2), hit(2.5, 'a1')] }], { player: 0, balls: [{ id: 'striker', x: 60, y: 50 }, ...mid({ without: ['a7', 'a8'] })] }),
    fouls: ['BAD_STRIKER_PLACEMENT'],
    expect: { penalty: 1, scores: [1, 0], nextPlayer: 1, respot: [{ spot: 'penalty', x: 500, y: 984 }] },
  },
  {
    id: 'E04',
    what: 'placement given only in `before` (striker listed with the pawns), legal, correct pot: series',
    log: log([{ before: [{ id: 'striker', x: 300, y: 40 }, ...mid()], events: [strike(2), hit(2.5, 'a2'), pot(2.9, 'a2', 'TL')] }], { player: 0, balls: mid() }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, points: 1, scores: [1, 0], nextPlayer: 0 },
  },
  {
    id: 'E05',
    what: 'striker placed touching a pawn (a B pawn lying in A’s zone): penalty N-P8',
    log: log([{ events: [place(1, 400, 51), strike(2), hit(2.5, 'a3')] }], { player: 0, balls: mid({ without: ['a8'], at: { b8: [400, 16] } }) }),
    fouls: ['PAWN_TOUCHED_PLACING'],
    expect: { penalty: 1, nextPlayer: 1, scores: [0, 0] },
  },
  // ---- Correct strokes (seed 003 rule 11.4) ----
  {
    id: 'E06',
    what: 'light pawns: rebound off the far edge onto an own light pawn, pocketed: correct, series',
    log: log([A(cushion(2.5, 'top'), hit(3, 'a4'), pot(3.3, 'a4', 'BL'))], { player: 0, balls: mid() }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, points: 1, scores: [1, 0], nextPlayer: 0 },
  },
  {
    id: 'E07',
    what: 'side edge then an own pawn in the centre circle (dark), pocketed: correct (11.4 в)',
    log: log([A(cushion(2.4, 'right'), hit(2.9, 'a1'), pot(3.2, 'a1', 'TL'))], { player: 0, balls: mid({ at: { a1: [500, 500] } }) }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, points: 1, scores: [1, 0], nextPlayer: 0 },
  },
  {
    id: 'E08',
    what: 'only dark pawns: far edge first, back onto an own dark pawn, pocketed: correct (11.4 б)',
    log: log([{ events: [place(1, 550, 50), strike(2), cushion(2.5, 'top'), hit(3.2, 'a1'), pot(3.4, 'a1', 'BL')] }], {
      player: 0,
      balls: mid({ without: ['a4', 'a5', 'a6', 'a7', 'a8'], at: onlyDark }),
    }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, points: 1, scores: [6, 0], nextPlayer: 0 },
  },
  {
    id: 'E09',
    what: 'only dark pawns: the striker goes to the far edge and touches no pawn: correct, turn ends without penalty',
    log: log([{ events: [place(1, 550, 50), strike(2), cushion(2.5, 'top')] }], { player: 0, balls: mid({ without: ['a4', 'a5', 'a6', 'a7', 'a8'], at: onlyDark }) }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, penalty: 0, points: 0, scores: [5, 0], nextPlayer: 1 },
  },
  // ---- Dark pawns ----
  {
    id: 'E10',
    what: 'only dark pawns: direct stroke onto an own dark pawn: penalty',
    log: log([{ events: [place(1, 550, 50), strike(2), hit(2.3, 'a3')] }], { player: 0, balls: mid({ without: ['a4', 'a5', 'a6', 'a7', 'a8'], at: onlyDark }) }),
    fouls: ['DARK_PAWN_FIRST'],
    expect: { legal: false, penalty: 1, scores: [4, 0], nextPlayer: 1 },
  },
  {
    id: 'E11',
    what: 'light pawns: direct stroke onto the own dark pawn in the centre circle: penalty',
    log: log([A(hit(2.5, 'a1'))], { player: 0, balls: mid({ without: ['a8'], at: { a1: [510, 490] } }) }),
    fouls: ['DARK_PAWN_FIRST'],
    expect: { penalty: 1, scores: [0, 0], nextPlayer: 1, respot: [{ ball: 'a8', spot: 'penalty', x: 500, y: 984 }] },
  },
  {
    id: 'E12',
    what: 'an opponent pawn lying in the striker’s own edge strip touched first: penalty, one pawn only',
    log: log([A(hit(2.1, 'b1'))], { player: 0, balls: mid({ without: ['a8'], at: { b1: [430, 40] } }) }),
    fouls: ['OPPONENT_PAWN_FIRST', 'OWN_ZONE_PAWN_FIRST'],
    expect: { penalty: 1, scores: [0, 0], nextPlayer: 1, penaltyPawns: [1, 0] },
  },
  // ---- Return line (seed 003 rule 12.9) ----
  {
    id: 'E13',
    what: 'no dark pawn: own pawn pocketed, striker crosses back into the own zone: turn lost, no penalty, pawn counts',
    log: log([A(cross(2.1, 'zone0', 'out'), hit(2.5, 'a4'), pot(2.8, 'a4', 'TL'), cross(3.5, 'zone0', 'in'))], { player: 0, balls: mid() }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, penalty: 0, points: 1, scores: [1, 0], nextPlayer: 1 },
  },
  {
    id: 'E14',
    what: 'return line logged with up/down (crossing zone0 going down the table): same call',
    log: log([A(cross(2.1, 'zone0', 'up'), hit(2.5, 'a4'), pot(2.8, 'a4', 'TL'), cross(3.5, 'zone0', 'down'))], { player: 0, balls: mid() }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, penalty: 0, points: 1, scores: [1, 0], nextPlayer: 1 },
  },
  {
    id: 'E15',
    what: 'return line shown only by the striker’s rest inside the own zone after a pot at the far pawns',
    log: log([{ ...A(hit(2.5, 'a4'), pot(2.8, 'a4', 'TL')), rest: [{ id: 'striker', x: 420, y: 45 }, ...mid({ without: ['a4'] })] }], { player: 0, balls: mid() }),
    fouls: [],
    exactFouls: true,
    expect: { penalty: 0, scores: [1, 0], nextPlayer: 1 },
  },
  {
    id: 'E16',
    what: 'player 1: return line across zone1 after a pot: turn to player 0',
    log: log([B(cross(2.1, 'zone1', 'out'), hit(2.5, 'b4'), pot(2.8, 'b4', 'BL'), cross(3.5, 'zone1', 'in'))], { player: 1, balls: mid() }),
    fouls: [],
    exactFouls: true,
    expect: { player: 1, penalty: 0, points: 1, scores: [0, 1], nextPlayer: 0 },
  },
  // ---- Series (rule 12.10) ----
  {
    id: 'E17',
    what: 'series: two pots, then a stroke without a pot ends the turn',
    log: log(
      [A(hit(2.5, 'a4'), pot(2.8, 'a4', 'TL')), A(hit(2.5, 'a5'), pot(2.8, 'a5', 'TR')), A(hit(2.5, 'a6'))],
      { player: 0, balls: mid() },
    ),
    fouls: [],
    expect: { legal: true, points: 0, scores: [2, 0], nextPlayer: 1, penalty: 0 },
    more: (c) => {
      expect(c[0]).toMatchObject({ nextPlayer: 0, scores: [1, 0] });
      expect(c[1]).toMatchObject({ nextPlayer: 0, scores: [2, 0] });
    },
  },
  // ---- Penalty cases and penalty pawns ----
  {
    id: 'E18',
    what: 'direct stroke onto an opponent pawn: penalty pawn on the middle of the far edge, touching it',
    log: log([A(hit(2.4, 'b5'))], { player: 0, balls: mid({ without: ['a7', 'a8'] }) }),
    fouls: ['OPPONENT_PAWN_FIRST'],
    exactFouls: true,
    expect: { legal: false, penalty: 1, points: 0, scores: [1, 0], nextPlayer: 1, respot: [{ spot: 'penalty', x: 500, y: 984 }] },
  },
  {
    id: 'E19',
    what: 'player 1 hits a player-0 pawn first: player 1’s penalty pawn goes on the middle of the bottom edge',
    log: log([B(hit(2.4, 'a5'))], { player: 1, balls: mid({ without: ['b1', 'b2'] }) }),
    fouls: ['OPPONENT_PAWN_FIRST'],
    expect: { player: 1, penalty: 1, scores: [0, 1], nextPlayer: 0, respot: [{ spot: 'penalty', x: 500, y: 16 }] },
  },
  {
    id: 'E20',
    what: 'penalty spot taken: the pawn goes along the far edge, touching it, on the offender’s right',
    log: log([A(hit(2.4, 'b5'))], { player: 0, balls: mid({ without: ['a7', 'a8'], at: { b8: [500, 984] } }) }),
    fouls: ['OPPONENT_PAWN_FIRST'],
    expect: { penalty: 1, scores: [1, 0] },
    more: (c) => {
      const r = (c[0]!.respot as { x: number; y: number; spot: string }[])[0]!;
      expect(r.spot).toBe('penalty');
      expect(r.y).toBeCloseTo(984, 6);
      expect(r.x).toBeGreaterThanOrEqual(532);
      expect(r.x).toBeLessThan(534);
    },
  },
  {
    id: 'E21',
    what: 'direct stroke: an opponent pawn flies, hits something outside and falls back (logged off, and at rest): counts as off, penalty, pawn back where it lay',
    log: log([{ ...A(hit(2.5, 'a4'), hit(2.7, 'b5', 'a4'), off(3, 'b5')), rest: [...mid({ without: ['a8', 'b5'] }), { id: 'b5', x: 700, y: 150 }, { id: 'striker', x: 480, y: 400 }] }], { player: 0, balls: mid({ without: ['a8'] }) }),
    fouls: ['OPPONENT_PAWN_OFF'],
    exactFouls: true,
    expect: { penalty: 1, scores: [0, 0], nextPlayer: 1 },
    more: (c) => expect(c[0]!.respot).toContainEqual(expect.objectContaining({ ball: 'b5', x: 520, y: 300, spot: 'original' })),
  },
  {
    id: 'E22',
    what: 'own pawn pocketed, then the striker drops in: penalty, the pawn is put back (net unchanged)',
    log: log([A(hit(2.5, 'a4'), pot(2.8, 'a4', 'TL'), pot(3.4, 'striker', 'BL'))], { player: 0, balls: mid({ without: ['a8'] }) }),
    fouls: ['STRIKER_POCKETED'],
    exactFouls: true,
    expect: { legal: false, points: 1, penalty: 1, scores: [1, 0], nextPlayer: 1 },
  },
  {
    id: 'E23',
    what: 'striker jumps off the board after a correct contact: penalty',
    log: log([A(hit(2.5, 'a4'), off(2.9, 'striker'))], { player: 0, balls: mid({ without: ['a8'] }) }),
    fouls: ['STRIKER_OFF_BOARD'],
    exactFouls: true,
    expect: { penalty: 1, scores: [0, 0], nextPlayer: 1 },
  },
  {
    id: 'E24',
    what: 'penalty debt: foul with nothing pocketed, then the debt pawn comes back at the end of the turn after a pot',
    log: log(
      [A(hit(2.4, 'b4')), B(hit(2.4, 'b4')), A(hit(2.5, 'a4'), pot(2.8, 'a4', 'TL')), A(hit(2.5, 'a5'))],
      { player: 0, balls: mid() },
    ),
    fouls: [],
    expect: { penalty: 0, scores: [0, 0], nextPlayer: 1, penaltyDebt: [0, 0], respot: [{ spot: 'penalty', x: 500, y: 984 }] },
    more: (c) => {
      expect(c[0]).toMatchObject({ penalty: 1, penaltyDebt: [1, 0], scores: [0, 0], nextPlayer: 1 });
      expect(c[1]).toMatchObject({ nextPlayer: 0, penaltyDebt: [1, 0] });
      expect(c[2]).toMatchObject({ scores: [1, 0], nextPlayer: 0 });
    },
  },
  {
    id: 'E25',
    what: 'manual foul (thick end of the cue): penalty for the striker',
    log: log([A(hit(2.5, 'a4'), foul(3, 'CUE_FAULT'))], { player: 0, balls: mid({ without: ['a8'] }) }),
    fouls: ['CUE_FAULT'],
    expect: { penalty: 1, scores: [0, 0], nextPlayer: 1 },
  },
  // ---- Pawns off the board ----
  {
    id: 'E26',
    what: 'direct stroke drives an opponent pawn off the board: penalty, that pawn back where it lay',
    log: log([A(hit(2.5, 'a4'), hit(2.7, 'b4', 'a4'), off(3, 'b4'))], { player: 0, balls: mid({ without: ['a8'] }) }),
    fouls: ['OPPONENT_PAWN_OFF'],
    exactFouls: true,
    expect: { penalty: 1, scores: [0, 0], nextPlayer: 1 },
    more: (c) => {
      const r = c[0]!.respot as { ball: string; x: number; y: number; spot: string }[];
      expect(r).toContainEqual(expect.objectContaining({ ball: 'b4', x: 440, y: 300, spot: 'original' }));
      expect(r).toContainEqual(expect.objectContaining({ ball: 'a8', spot: 'penalty' }));
    },
  },
  {
    id: 'E27',
    what: 'correct stroke drives an own pawn off: no penalty, turn lost, pawn put in the centre circle',
    log: log([A(hit(2.5, 'a4'), hit(2.7, 'a5', 'a4'), pot(2.9, 'a4', 'TL'), off(3.1, 'a5'))], { player: 0, balls: mid() }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, penalty: 0, points: 1, scores: [1, 0], nextPlayer: 1, respot: [{ ball: 'a5', x: 500, y: 500, spot: 'centre' }] },
  },
  {
    id: 'E28',
    what: 'rebound (far edge) correct stroke drives an opponent pawn off: no penalty, turn lost, pawn back',
    log: log([A(cushion(2.4, 'top'), hit(2.8, 'a4'), hit(3, 'b6', 'a4'), off(3.2, 'b6'))], { player: 0, balls: mid() }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, penalty: 0, nextPlayer: 1, respot: [{ ball: 'b6', x: 600, y: 300, spot: 'original' }] },
  },
  // ---- Set and match ----
  {
    id: 'E29',
    what: 'last own pawn pocketed cleanly: set won',
    log: log([A(hit(2.5, 'a1'), pot(2.8, 'a1', 'TR'))], { player: 0, balls: [{ id: 'a1', x: 500, y: 700 }, ...mid().filter((b) => String(b.id).startsWith('b'))] }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, points: 1, scores: [8, 0], frameOver: true, winner: 0, inHand: false, setScores: [1, 0] },
  },
  {
    id: 'E30',
    what: 'set won at 3:1 in sets (first to 4): match over',
    log: log([B(hit(2.5, 'b1'), pot(2.8, 'b1', 'BL'))], { player: 1, balls: [{ id: 'b1', x: 500, y: 300 }, ...mid().filter((b) => String(b.id).startsWith('a'))], setScores: [1, 3] }),
    fouls: [],
    expect: { frameOver: true, winner: 1, scores: [0, 8], setScores: [1, 4], matchOver: true, matchWinner: 1 },
  },
  {
    id: 'E31',
    what: 'pawns moved without a stroke (loss-of-set case e, entered by hand for player 1): set to player 0',
    log: log([A(hit(2.5, 'a4')), { events: [foul(1, 'PAWNS_MOVED_WITHOUT_STROKE', 1)] }], { player: 0, balls: mid() }),
    expect: { frameOver: true, winner: 0, setScores: [1, 0] },
  },
  // ---- Input forms an examiner may use (rule 12.5: the striker may be moved by hand before the stroke) ----
  {
    id: 'E32',
    what: 'striker moved by hand and placed again before the stroke: no foul (rule 12.5)',
    log: log([{ events: [place(0.5, 300, 50), { t: 1, type: 'touch', ball: 'striker', by: 'hand' }, place(1.2, 500, 50), strike(2), hit(2.5, 'a4'), pot(2.8, 'a4', 'TL')] }], { player: 0, balls: mid() }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, penalty: 0, points: 1, scores: [1, 0], nextPlayer: 0 },
  },
  {
    id: 'E33',
    what: 'striker first put on the zone line, then re-placed inside the zone before striking: legal',
    log: log([{ events: [place(0.5, 500, 100), place(1.2, 500, 50), strike(2), hit(2.5, 'a4'), pot(2.8, 'a4', 'TL')] }], { player: 0, balls: mid() }),
    fouls: [],
    exactFouls: true,
    expect: { legal: true, penalty: 0, scores: [1, 0], nextPlayer: 0 },
  },
  {
    id: 'E34',
    what: 'manual foul entered with the contract’s generic code TOUCHED_BALL: Novus TOUCHED_PAWN penalty',
    log: log([A(hit(2.5, 'a4'), foul(3, 'TOUCHED_BALL'))], { player: 0, balls: mid({ without: ['a8'] }) }),
    fouls: ['TOUCHED_PAWN'],
    expect: { penalty: 1, scores: [0, 0], nextPlayer: 1 },
  },
  {
    id: 'E35',
    what: 'the non-striker moves his own pawn by hand during the opponent’s turn: his penalty pawn at once, pawn back, he forfeits the turn',
    log: log([A(hit(2.5, 'a4'), { t: 3, type: 'touch', ball: 'b3', by: 'hand' })], { player: 0, balls: mid({ without: ['b8'] }) }),
    fouls: ['MOVED_IN_OPPONENT_TURN'],
    exactFouls: true,
    expect: { legal: true, penalty: 1, scores: [0, 0], nextPlayer: 0, respot: [{ ball: 'b8', x: 500, y: 16, spot: 'penalty' }] },
  },
];

describe('Novus acceptance (examiner cases)', () => {
  test.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const r = refereeLog(c.log);
    if (!r.ok) throw new Error(`${c.id}: log rejected ${r.error.code} at ${r.error.field}: ${r.error.message}`);
    const calls = r.value.calls as unknown as Obj[];
    const call = calls[c.at ?? calls.length - 1]!;
    const got = (call.fouls as { code: string }[]).map((f) => f.code);
    if (c.fouls) {
      if (c.exactFouls) expect([...got].sort(), c.what).toEqual([...c.fouls].sort());
      else for (const f of c.fouls) expect(got, c.what).toContain(f);
    }
    expect(call, c.what).toMatchObject(c.expect);
    c.more?.(calls);
  });

  test('CLI: `cueref referee FILE --json` on a hand-entered log (penalty then the opponent’s series)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'novus-acc-'));
    const file = join(dir, 'log.json');
    writeFileSync(file, JSON.stringify(log([A(hit(2.4, 'b5')), B(hit(2.5, 'b2'), pot(2.8, 'b2', 'BL'))], { player: 0, balls: mid({ without: ['a8'] }) })));
    const r = spawnSync(process.execPath, ['bin/cueref.js', 'referee', file, '--json'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ format: 'cueref.calls/1', game: 'novus' });
    expect(doc.calls[0]).toMatchObject({ penalty: 1, fouls: [{ code: 'OPPONENT_PAWN_FIRST' }], scores: [0, 0], nextPlayer: 1, respot: [{ ball: 'a8', x: 500, y: 984, spot: 'penalty' }] });
    expect(doc.calls[1]).toMatchObject({ player: 1, legal: true, points: 1, scores: [0, 1], nextPlayer: 1 });
  });
});
