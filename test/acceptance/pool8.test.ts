/**
 * Acceptance cases for 8-ball pool, written the way an outside examiner writes them from the rule
 * book (../shared/spec/rules-pool8.md, seed 004): hand-entered stroke logs, mostly from a standard
 * rack, usually without `rest`/`before`, checked on the contract fields of cueref.calls/1.
 * Each log goes through `refereeLog` (src/rules/registry.ts); one goes through the real CLI.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { refereeLog } from '../../src/rules/registry.js';

type J = Record<string, unknown>;
type Ev = J;

// Event shorthands (plain contract JSON).
const S = (t: number): Ev => ({ t, type: 'strike', ball: 'cue' });
const C = (t: number, b: string, a = 'cue'): Ev => ({ t, type: 'contact', a, b });
const R = (t: number, ball: string, side = 'top'): Ev => ({ t, type: 'cushion', ball, side });
const P = (t: number, ball: string, pocket: string): Ev => ({ t, type: 'pot', ball, pocket });
const OFF = (t: number, ball: string): Ev => ({ t, type: 'offTable', ball });
const PLACE = (t: number, x: number, y: number): Ev => ({ t, type: 'place', ball: 'cue', x, y });

const log = (strokes: J[], extra: J = {}): J => ({
  format: 'cueref.strokes/1',
  game: 'pool8',
  players: ['Ann', 'Bob'],
  start: { player: 0, scores: [0, 0], balls: 'standard' },
  ...extra,
  strokes,
});

/** A legal break by whoever is at the table: the cue ball hits the head ball, four balls to rails. */
const brk = (pots: [string, string][] = [], more: Ev[] = [], rails = ['2', '6', '10', '13']): J => ({
  events: [
    S(0),
    C(0.2, '1'),
    ...rails.map((b, i) => R(0.5 + i * 0.1, b, ['left', 'right', 'top', 'left'][i % 4])),
    ...pots.map(([b, p], i) => P(1.2 + i * 0.1, b, p)),
    ...more,
  ].sort((a, b) => (a.t as number) - (b.t as number)),
});
/** An open break: a stripe and a solid go down, the cue ball stays up; the breaker continues. */
const openBreak = () => brk([['3', 'TL'], ['9', 'TR']]);
/** Breaker pots 1 (called) on the next shot: Ann = solids, Bob = stripes. */
const takeSolids = (): J => ({ calledBall: '1', calledPocket: 'TL', events: [S(10), C(10.3, '1'), P(10.9, '1', 'TL')] });
/** A plain shot at `b` that touches a rail and pockets nothing. */
const miss = (b: string, t = 20): J => ({ events: [S(t), C(t + 0.3, b), R(t + 0.8, b, 'right')] });
/** A called pot of `b` in `p`. */
const pot = (b: string, p: string, t = 30): J => ({ calledBall: b, calledPocket: p, events: [S(t), C(t + 0.3, b), P(t + 0.9, b, p)] });
/** Ann (solids) runs out 2..7 after taking solids with 1 (3 went down on the break). */
const annClearsLog = (): J => log(annClears());
const annClears = (): J[] => [openBreak(), takeSolids(), pot('2', 'TR', 11), pot('4', 'BL', 12), pot('5', 'BR', 13), pot('6', 'ML', 14), pot('7', 'MR', 15)];

interface Case {
  id: string;
  rule: string;
  log: J;
  at?: number;
  want: J & { codes?: string[] };
}

const cases: Case[] = [
  // ---------- the break ----------
  { id: 'A01', rule: 'legal break with a pot: breaker continues, table open (WPA 4.3, 4.4)', log: log([brk([['5', 'TL']])]), want: { codes: [], legal: true, nextPlayer: 0, inHand: false, frameOver: false, winner: null, tableOpen: true, groups: [null, null], scores: [0, 0] } },
  { id: 'A02', rule: 'break, nothing down, 4 distinct balls to rails: legal, turn passes', log: log([brk()]), want: { codes: [], legal: true, nextPlayer: 1, inHand: false, tableOpen: true } },
  { id: 'A03', rule: 'break, nothing down, one ball reaches rails twice + 2 others = 3 distinct: illegal break', log: log([brk([], [], ['2', '6', '2', '13'])]), want: { codes: ['ILLEGAL_BREAK'], legal: false, nextPlayer: 1, frameOver: false } },
  { id: 'A04', rule: 'illegal break, incoming player makes the breaker break again', log: log([brk([], [], ['2', '6']), { decision: 'breakAgain', ...brk([['4', 'BL']]) }]), want: { player: 0, codes: [], legal: true, nextPlayer: 0 } },
  { id: 'A05', rule: 'illegal break, incoming player re-racks and breaks himself', log: log([brk([], [], ['2', '6']), { decision: 'rerack', ...brk() }]), want: { player: 1, codes: [], nextPlayer: 0 } },
  { id: 'A06', rule: 'illegal break, incoming player accepts the table and plays (no ball in hand)', log: log([brk([], [], ['2', '6']), { decision: 'play', ...miss('11') }]), want: { player: 1, codes: [], legal: true, nextPlayer: 0 } },
  { id: 'A07', rule: '8 on the break, no foul: not a win; breaker chooses (spot the 8 or re-break)', log: log([brk([['8', 'MR']])]), want: { codes: [], frameOver: false, winner: null, nextPlayer: 0, scores: [0, 0] } },
  { id: 'A08', rule: '8 on the break, breaker spots it and keeps shooting', log: log([brk([['8', 'MR']]), { decision: 'spot8', ...pot('12', 'TR', 10) }]), want: { player: 0, codes: [], legal: true, nextPlayer: 0, groups: ['stripes', 'solids'] } },
  { id: 'A09', rule: '8 and the cue ball down on the break: foul, not a loss; incoming player chooses, in hand in the kitchen', log: log([brk([['8', 'TL']], [P(1.6, 'cue', 'BR')])]), want: { codes: ['BREAK_SCRATCH'], legal: false, frameOver: false, winner: null, nextPlayer: 1, inHand: true, inHandZone: 'kitchen' } },
  { id: 'A10', rule: 'break scratch after pots: balls stay down, incoming in hand behind the head string', log: log([brk([['5', 'TL'], ['12', 'TR']], [P(1.7, 'cue', 'ML')])]), want: { codes: ['BREAK_SCRATCH'], legal: false, nextPlayer: 1, inHand: true, inHandZone: 'kitchen', tableOpen: true, points: 0 } },
  { id: 'A11', rule: 'object ball jumps off the table on the break: foul, ball not spotted', log: log([brk([], [OFF(1.4, '14')])]), want: { codes: ['OFF_TABLE'], legal: false, nextPlayer: 1, inHandZone: 'kitchen', frameOver: false } },
  { id: 'A12', rule: 'the break is no shot at a group: break pots 2 solids, table still open', log: log([brk([['2', 'TL'], ['4', 'BL']])]), want: { codes: [], tableOpen: true, groups: [null, null], nextPlayer: 0 } },

  // ---------- open table, groups ----------
  { id: 'A13', rule: 'open table: called stripe pocketed assigns stripes (after an open break)', log: log([openBreak(), pot('11', 'BL', 10)]), want: { codes: [], legal: true, tableOpen: false, groups: ['stripes', 'solids'], nextPlayer: 0 } },
  { id: 'A14', rule: 'open table: called solid and a stripe both fall: the called ball decides', log: log([openBreak(), { calledBall: '6', calledPocket: 'TR', events: [S(10), C(10.3, '6'), C(10.5, '14', '6'), P(10.9, '6', 'TR'), P(11.0, '14', 'BR')] }]), want: { codes: [], groups: ['solids', 'stripes'], nextPlayer: 0 } },
  { id: 'A15', rule: 'open table: a stripe may be hit first to pocket a called solid (combination)', log: log([openBreak(), { calledBall: '2', calledPocket: 'ML', events: [S(10), C(10.3, '10'), C(10.6, '2', '10'), P(11.0, '2', 'ML')] }]), want: { codes: [], legal: true, groups: ['solids', 'stripes'], nextPlayer: 0 } },
  { id: 'A16', rule: 'open table: hitting the 8 first is a foul; ball in hand anywhere', log: log([openBreak(), { events: [S(10), C(10.3, '8'), R(10.8, '8', 'left')] }]), want: { codes: ['WRONG_GROUP_FIRST'], legal: false, nextPlayer: 1, inHand: true, inHandZone: 'anywhere', tableOpen: true } },
  { id: 'A17', rule: 'open table: balls pocketed on a foul do not assign a group', log: log([openBreak(), { calledBall: '12', calledPocket: 'TL', events: [S(10), C(10.3, '12'), P(10.9, '12', 'TL'), P(11.4, 'cue', 'TR')] }]), want: { codes: ['SCRATCH'], tableOpen: true, groups: [null, null], nextPlayer: 1, inHand: true, inHandZone: 'anywhere' } },

  // ---------- standard fouls ----------
  { id: 'A18', rule: 'groups set: striking the opponent\'s ball first (WPA 3.2)', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '13'), R(20.9, '13', 'top')] }]), want: { player: 0, codes: ['WRONG_GROUP_FIRST'], legal: false, nextPlayer: 1, inHand: true, inHandZone: 'anywhere' } },
  { id: 'A19', rule: 'cue ball hits no ball at all', log: log([openBreak(), takeSolids(), { events: [S(20), R(20.5, 'cue', 'left'), R(21.1, 'cue', 'top')] }]), want: { codes: ['NO_CONTACT'], nextPlayer: 1, inHand: true, inHandZone: 'anywhere' } },
  { id: 'A20', rule: 'legal first contact but no ball to a rail and nothing pocketed', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2')] }]), want: { codes: ['NO_RAIL'], nextPlayer: 1, inHand: true } },
  { id: 'A21', rule: 'legal contact, the cue ball reaches a rail after it: legal miss, turn passes, no ball in hand', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), R(20.8, 'cue', 'right')] }]), want: { codes: [], legal: true, nextPlayer: 1, inHand: false } },
  { id: 'A22', rule: 'own ball pocketed, then the cue ball scratches: foul, ball stays down, ball in hand anywhere', log: log([openBreak(), takeSolids(), { calledBall: '2', calledPocket: 'TR', events: [S(20), C(20.3, '2'), P(20.8, '2', 'TR'), P(21.3, 'cue', 'BL')] }]), want: { codes: ['SCRATCH'], nextPlayer: 1, inHand: true, inHandZone: 'anywhere', points: 0 } },
  { id: 'A23', rule: 'cue ball jumps off the table: a scratch (3.1)', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), R(20.6, '2', 'top'), OFF(20.9, 'cue')] }]), want: { codes: ['SCRATCH'], nextPlayer: 1, inHand: true } },
  { id: 'A24', rule: 'object ball driven off the table after the break: foul, ball in hand anywhere', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), OFF(20.7, '2')] }]), want: { codes: ['OFF_TABLE'], nextPlayer: 1, inHand: true, inHandZone: 'anywhere' } },
  { id: 'A25', rule: 'ball in hand: the incoming player places the cue ball anywhere and plays on', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '13'), R(20.9, '13', 'top')] }, { events: [PLACE(29, 200, 2000), S(30), C(30.3, '12'), P(30.9, '12', 'TL')], calledBall: '12', calledPocket: 'TL' }]), want: { player: 1, codes: [], legal: true, nextPlayer: 1 } },
  { id: 'A26', rule: 'three fouls in a row: no loss in 8-ball (WPA 3.13)', log: log([openBreak(), takeSolids(), miss('13', 20), miss('2', 30), miss('13', 40), miss('2', 50), miss('13', 60)]), want: { codes: ['WRONG_GROUP_FIRST'], frameOver: false, winner: null, nextPlayer: 1 } },

  // ---------- the 8 ----------
  { id: 'A27', rule: 'group cleared, the 8 in the called pocket: rack won', log: log([...annClears(), pot('8', 'TL', 16)]), want: { player: 0, codes: [], legal: true, frameOver: true, winner: 0, scores: [1, 0] } },
  { id: 'A28', rule: 'the 8 in a pocket other than the one called: loss', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), P(16.9, '8', 'TR')] }]), want: { codes: ['EIGHT_WRONG_POCKET'], frameOver: true, winner: 1, scores: [0, 1] } },
  { id: 'A29', rule: 'the 8 pocketed with a scratch: loss', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), P(16.9, '8', 'TL'), P(17.4, 'cue', 'BR')] }]), want: { codes: ['SCRATCH', 'EIGHT_WITH_FOUL'], frameOver: true, winner: 1, scores: [0, 1] } },
  { id: 'A30', rule: 'the 8 pocketed before the group is cleared: loss', log: log([openBreak(), takeSolids(), { calledBall: '2', calledPocket: 'TR', events: [S(20), C(20.3, '2'), C(20.6, '8', '2'), P(21.0, '8', 'BL')] }]), want: { codes: ['EIGHT_EARLY'], frameOver: true, winner: 1 } },
  { id: 'A31', rule: 'the 8 driven off the table: loss', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), OFF(16.8, '8')] }]), want: { codes: ['EIGHT_OFF_TABLE'], frameOver: true, winner: 1 } },
  { id: 'A32', rule: 'on the 8, the opponent\'s ball hit first and the 8 drops: loss (8 with a foul)', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '11'), C(16.6, '8', '11'), P(17.0, '8', 'TL')] }]), want: { frameOver: true, winner: 1, codesInclude: ['WRONG_GROUP_FIRST', 'EIGHT_WITH_FOUL'] } },
  { id: 'A33', rule: 'the 8 written as "eight" in the call', log: log([...annClears(), { calledBall: 'eight', calledPocket: 'TL', events: [S(16), C(16.3, '8'), P(16.9, '8', 'TL')] }]), want: { codes: [], frameOver: true, winner: 0 } },
  { id: 'A34', rule: 'on the 8, the 8 missed and the cue scratches: WPA standard foul only', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), R(16.7, '8', 'top'), P(17.2, 'cue', 'BR')] }]), want: { codes: ['SCRATCH'], frameOver: false, nextPlayer: 1, inHand: true } },
  { id: 'A35', rule: 'called safety: own ball falls, no foul, turn passes, ball stays down', log: log([openBreak(), takeSolids(), { calledPocket: 'safety', events: [S(20), C(20.3, '2'), P(20.9, '2', 'BL')] }]), want: { codes: [], legal: true, nextPlayer: 1, inHand: false, frameOver: false } },
  { id: 'A36', rule: 'called safety on the 8 and the 8 drops: loss (not in a called pocket)', log: log([...annClears(), { calledPocket: 'safety', events: [S(16), C(16.3, '8'), P(16.9, '8', 'TL')] }]), want: { codes: ['EIGHT_WRONG_POCKET'], frameOver: true, winner: 1 } },

  // ---------- concession, stalemate, several racks ----------
  { id: 'A37', rule: 'concession: the other player wins the rack', log: log([openBreak(), takeSolids(), { events: [{ t: 20, type: 'concede', player: 1 }] }]), want: { frameOver: true, winner: 0, scores: [1, 0] } },
  { id: 'A38', rule: 'stalemate: the rack ends drawn, nobody scores', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), R(20.8, '2', 'left'), { t: 25, type: 'stalemate' }] }]), want: { frameOver: true, winner: null, scores: [0, 0] } },
  { id: 'A39', rule: 'two racks: Ann wins the first, Bob breaks the second (alternate) and wins it', log: log([...annClears(), pot('8', 'TL', 16), brk([['3', 'TL']]), pot('12', 'BL', 40), { events: [{ t: 41, type: 'concede', player: 0 }] }]), want: { frameOver: true, winner: 1, scores: [1, 1] } },
  { id: 'A39b', rule: 'two racks: the second rack\'s break is by Bob', at: 8, log: log([...annClears(), pot('8', 'TL', 16), brk([['3', 'TL']])]), want: { player: 1, codes: [], nextPlayer: 1, frameOver: false, scores: [1, 0], tableOpen: true } },

  // ---------- variants ----------
  { id: 'V01', rule: 'WPA-2016: 8 on the break with an object ball off the table (no scratch): no re-rack option', log: log([brk([['8', 'TL']], [OFF(1.5, '14')])], { variant: 'WPA 2016' }), want: { codes: ['OFF_TABLE'], frameOver: false, nextPlayer: 1, options: ['spot8'] } },
  { id: 'V02', rule: 'WPA-2025: the same break: the incoming player may spot or re-rack', log: log([brk([['8', 'TL']], [OFF(1.5, '14')])], { variant: 'WPA 2025' }), want: { codes: ['OFF_TABLE'], frameOver: false, nextPlayer: 1, options: ['spot8', 'rerack'] } },
  { id: 'V03', rule: 'APA: the 8 on the break wins', log: log([brk([['8', 'TL']])], { variant: 'APA' }), want: { frameOver: true, winner: 0, scores: [1, 0] } },
  { id: 'V04', rule: 'APA: the 8 on the break with a scratch loses', log: log([brk([['8', 'TL']], [P(1.6, 'cue', 'BR')])], { variant: 'APA' }), want: { frameOver: true, winner: 1 } },
  { id: 'V05', rule: 'bar: a non-scratch foul only passes the turn (no ball in hand)', log: log([brk([['3', 'TL']]), takeSolids(), { events: [S(20), C(20.3, '13'), R(20.9, '13', 'top')] }], { variant: 'bar' }), want: { codesInclude: ['WRONG_GROUP_FIRST'], nextPlayer: 1, inHand: false } },
  { id: 'V06', rule: 'blackball: a foul gives two visits, the first a free shot', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '13'), R(20.9, '13', 'top')] }], { variant: 'blackball' }), want: { codes: ['WRONG_GROUP_FIRST'], nextPlayer: 1, visits: 2, freeShot: true } },
  { id: 'V07', rule: 'blackball: after a foul the incoming player misses on his first visit and plays again', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '13'), R(20.9, '13', 'top')] }, miss('12', 30)], { variant: 'blackball' }), want: { player: 1, codes: [], nextPlayer: 1, visits: 1 } },
  { id: 'V08', rule: 'blackball: the black potted on the break: re-rack, same breaker', log: log([brk([['8', 'TL']])], { variant: 'blackball' }), want: { frameOver: false, nextPlayer: 0, rerack: true } },
  { id: 'V09', rule: 'blackball: potting the black early loses the frame', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), C(20.5, '8', '2'), P(20.9, '8', 'BL')] }], { variant: 'blackball' }), want: { frameOver: true, winner: 1 } },
  { id: 'V10', rule: 'Canada (seed 004): on the 8, potting the opponent\'s ball loses', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), C(16.6, '11', '8'), P(17.0, '11', 'BR')] }], { variant: 'Canada' }), want: { frameOver: true, winner: 1 } },
  { id: 'V11', rule: 'Russia (seed 004): after clearing, a scratch does not lose; the game goes on', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), R(16.7, '8', 'top'), P(17.2, 'cue', 'BR')] }], { variant: 'Russia' }), want: { codes: ['SCRATCH'], frameOver: false, nextPlayer: 1 } },
  { id: 'V12', rule: 'seed 004 general rules: a scratch while on the 8 loses', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), R(16.7, '8', 'top'), P(17.2, 'cue', 'BR')] }], { variant: 'seed004' }), want: { frameOver: true, winner: 1 } },
  { id: 'V13', rule: 'Latin America (seed 004): the 8 must go in the pocket of the last group ball', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), P(16.9, '8', 'TL')] }], { variant: 'Latin America' }), want: { frameOver: true, winner: 1 } },
  { id: 'V14', rule: 'Latin America: the 8 in the last pocket wins', log: log([...annClears(), { calledBall: '8', calledPocket: 'MR', events: [S(16), C(16.3, '8'), P(16.9, '8', 'MR')] }], { variant: 'latin-america' }), want: { frameOver: true, winner: 0 } },

  // ---------- more break cases ----------
  { id: 'A40', rule: 'break: 3 balls to rails + 1 off the table = 4 distinct: legal break, off-table foul only (B4)', log: log([brk([], [OFF(1.4, '15')], ['2', '6', '10'])]), want: { codes: ['OFF_TABLE'], nextPlayer: 1, inHand: true, inHandZone: 'kitchen', breakLegal: true } },
  { id: 'A41', rule: 'break: only 3 object balls to rails, the cue ball\'s own rail does not count', log: log([brk([], [R(0.9, 'cue', 'bottom')], ['2', '6', '10'])]), want: { codes: ['ILLEGAL_BREAK'], nextPlayer: 1 } },
  { id: 'A42', rule: 'illegal break with a scratch: accepting the table comes with the cue ball in the kitchen', log: log([brk([], [P(1.5, 'cue', 'TR')], ['2', '6'])]), want: { codesInclude: ['ILLEGAL_BREAK', 'BREAK_SCRATCH'], nextPlayer: 1, inHand: true, inHandZone: 'kitchen' } },
  { id: 'A43', rule: 'the cue ball leaves the table on the break: break scratch', log: log([brk([['12', 'TL']], [OFF(1.6, 'cue')])]), want: { codes: ['BREAK_SCRATCH'], nextPlayer: 1, inHand: true, inHandZone: 'kitchen' } },
  { id: 'A44', rule: 'the 8 off the table on the break: foul, not a loss (spec B2 interpretation)', log: log([brk([], [OFF(1.5, '8')])]), want: { codesInclude: ['OFF_TABLE'], frameOver: false, winner: null, nextPlayer: 1, inHandZone: 'kitchen' } },
  { id: 'A45', rule: 'break scratch: the incoming player places the cue ball in the kitchen and plays a ball beyond the string', log: log([brk([['12', 'TL']], [P(1.7, 'cue', 'ML')]), { events: [PLACE(9, 500, 300), S(10), { t: 10.1, type: 'cross', ball: 'cue', line: 'headString', dir: 'up' }, C(10.5, '3'), P(11, '3', 'TR')], calledBall: '3', calledPocket: 'TR' }]), want: { player: 1, codes: [], legal: true, nextPlayer: 1, groups: ['stripes', 'solids'] } },

  // ---------- more play ----------
  { id: 'A46', rule: 'open table: the 8 falls on a legal shot at a solid: loss (8 early)', log: log([openBreak(), { calledBall: '2', calledPocket: 'TR', events: [S(10), C(10.3, '2'), C(10.5, '8', '2'), P(10.9, '8', 'BL')] }]), want: { codes: ['EIGHT_EARLY'], frameOver: true, winner: 1 } },
  { id: 'A47', rule: 'after potting the last ball of his group the shooter is on the 8', log: annClearsLog(), want: { codes: [], nextPlayer: 0, nextBallOn: ['8'], points: 1 } },
  { id: 'A48', rule: 'on the 8: hitting an opponent ball first is a foul', log: log([...annClears(), { events: [S(16), C(16.3, '12'), R(16.8, '12', 'top')] }]), want: { codes: ['WRONG_GROUP_FIRST'], nextPlayer: 1, inHand: true, frameOver: false } },
  { id: 'A49', rule: 'groups set: cue ball hits an own and an opponent ball at the same instant: legal (split favours the shooter)', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), C(20.3, '11'), R(20.8, '11', 'top')] }]), want: { codes: [], legal: true, nextPlayer: 1 } },
  { id: 'A50', rule: 'groups set: own ball pocketed plus an opponent ball: legal, shooter continues (WPA)', log: log([openBreak(), takeSolids(), { calledBall: '2', calledPocket: 'TR', events: [S(20), C(20.3, '2'), C(20.5, '11', '2'), P(20.9, '2', 'TR'), P(21, '11', 'TL')] }]), want: { codes: [], legal: true, nextPlayer: 0 } },
  { id: 'A51', rule: 'groups set: only an opponent ball pocketed on a legal hit: no foul, turn passes', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), C(20.5, '11', '2'), P(20.9, '11', 'TL')] }]), want: { codes: [], legal: true, nextPlayer: 1, inHand: false } },
  { id: 'A52', rule: 'the last ball of the group pocketed on a foul stays down: next turn the player is on the 8', log: log([...annClears().slice(0, -1), { calledBall: '7', calledPocket: 'MR', events: [S(15), C(15.3, '7'), P(15.9, '7', 'MR'), P(16.3, 'cue', 'BL')] }, miss('12', 17), pot('8', 'TL', 18)]), want: { player: 0, codes: [], frameOver: true, winner: 0 } },
  { id: 'A53', rule: 'the 8 on a straight obvious shot without a called pocket: the obvious-call rule applies (win)', log: log([...annClears(), { events: [S(16), C(16.3, '8'), P(16.9, '8', 'TL')] }]), want: { codes: [], frameOver: true, winner: 0 } },
  { id: 'A54', rule: 'the 8 banked in without a called pocket: loss (WPA 4.8: not in the called pocket)', log: log([...annClears(), { events: [S(16), C(16.3, '8'), R(16.6, '8', 'left'), P(16.9, '8', 'TL')] }]), want: { codes: ['EIGHT_WRONG_POCKET'], frameOver: true, winner: 1 } },
  { id: 'A55', rule: 'stalemate: the original breaker breaks the replay', log: log([openBreak(), takeSolids(), miss('2', 20), { events: [{ t: 25, type: 'stalemate' }] }, brk([['4', 'TL']])]), want: { player: 0, scores: [0, 0], frameOver: false } },
  { id: 'A56', rule: 'the shooter concedes (concede by the player at the table)', log: log([openBreak(), takeSolids(), { events: [{ t: 20, type: 'concede', player: 0 }] }]), want: { frameOver: true, winner: 1, scores: [0, 1] } },
  { id: 'A57', rule: 'pool fouls carry no points: penalty 0, points 0', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '13'), R(20.9, '13', 'top')] }]), want: { penalty: 0, points: 0 } },
  { id: 'A58', rule: 'the hand moves an object ball: touched-ball foul (WPA-2025 all-ball fouls)', log: log([openBreak(), takeSolids(), { events: [{ t: 19, type: 'touch', ball: '11', by: 'hand' }, S(20), C(20.3, '2'), R(20.8, '2', 'left')] }]), want: { codesInclude: ['TOUCHED_BALL'], nextPlayer: 1, inHand: true } },
  { id: 'A59', rule: 'the referee enters a foul by hand (feet off the floor)', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), R(20.8, '2', 'left'), { t: 20.9, type: 'foul', code: 'FEET_OFF_FLOOR' }] }]), want: { codesInclude: ['FEET_OFF_FLOOR'], nextPlayer: 1, inHand: true } },

  // ---------- more variants ----------
  { id: 'V15', rule: 'bar (seed 004 USA): break pots 2 solids and 1 stripe: the breaker gets solids', log: log([brk([['2', 'TL'], ['4', 'BL'], ['11', 'TR']])], { variant: 'bar' }), want: { nextPlayer: 0, groups: ['solids', 'stripes'] } },
  { id: 'V16', rule: 'bar (seed 004 USA): break pots one of each group: the turn passes', log: log([brk([['2', 'TL'], ['11', 'TR']])], { variant: 'bar' }), want: { nextPlayer: 1, tableOpen: true } },
  { id: 'V17', rule: 'blackball: in-off gives two visits with the cue ball from baulk', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), R(20.6, '2', 'left'), P(21, 'cue', 'TL')] }], { variant: 'blackball' }), want: { codesInclude: ['SCRATCH'], nextPlayer: 1, inHand: true, inHandZone: 'baulk', visits: 2, freeShot: true } },
  { id: 'V18', rule: 'blackball: the black in any pocket after clearing wins (no call)', log: log([...annClears(), { events: [S(16), C(16.3, '8'), R(16.6, '8', 'left'), P(16.9, '8', 'BR')] }], { variant: 'blackball' }), want: { codes: [], frameOver: true, winner: 0 } },
  { id: 'V19', rule: 'blackball: potting an opponent ball is a foul', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), C(20.5, '11', '2'), P(20.9, '11', 'TL')] }], { variant: 'blackball' }), want: { codesInclude: ['OPPONENT_BALL_POTTED'], nextPlayer: 1, visits: 2 } },
  { id: 'V20', rule: 'blackball break: two balls over the centre string: legal', log: log([{ events: [S(0), C(0.2, '1'), { t: 0.8, type: 'cross', ball: '5', line: 'centreLine', dir: 'down' }, { t: 0.9, type: 'cross', ball: '12', line: 'centreLine', dir: 'down' }] }], { variant: 'blackball' }), want: { codes: [], breakLegal: true, nextPlayer: 1 } },
  { id: 'V21', rule: 'blackball break: balls reaching the baulk cushion have crossed the centre string', log: log([{ events: [S(0), C(0.2, '1'), R(1.2, '5', 'bottom'), R(1.3, '12', 'bottom')] }], { variant: 'blackball' }), want: { codes: [], breakLegal: true, nextPlayer: 1 } },
  { id: 'V22', rule: 'blackball: a shot with both colours potted on an open table leaves it open', log: log([openBreak(), { events: [S(10), C(10.3, '2'), C(10.5, '11', '2'), P(10.9, '2', 'TL'), P(11, '11', 'TR')] }], { variant: 'blackball' }), want: { codes: [], tableOpen: true, nextPlayer: 0 } },
  { id: 'V23', rule: 'WEPF: a foul gives two visits without a free shot', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '13'), R(20.9, '13', 'top')] }], { variant: 'WEPF' }), want: { codesInclude: ['WRONG_GROUP_FIRST'], nextPlayer: 1, visits: 2, freeShot: false } },
  { id: 'V24', rule: 'IEPF: a foul gives one visit with the cue ball in hand anywhere', log: log([brk([['3', 'TL'], ['9', 'TR']], [{ t: 1.5, type: 'cross', ball: '14', line: 'centreLine', dir: 'down' }]), takeSolids(), { events: [S(20), C(20.3, '13'), R(20.9, '13', 'top')] }], { variant: 'IEPF' }), want: { codesInclude: ['WRONG_GROUP_FIRST'], nextPlayer: 1, visits: 1, inHand: true, inHandZone: 'anywhere' } },
  { id: 'V25', rule: 'Canada: on the 8, missing the 8 loses', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '12'), R(16.8, '12', 'top')] }], { variant: 'Canadian' }), want: { frameOver: true, winner: 1 } },
  { id: 'V26', rule: 'India: after clearing, a scratch without the 8 gives the opponent two visits, no loss', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), R(16.7, '8', 'top'), P(17.2, 'cue', 'BR')] }], { variant: 'India' }), want: { codesInclude: ['SCRATCH'], frameOver: false, nextPlayer: 1, visits: 2 } },
  { id: 'V27', rule: 'Russia: three fouls in a row after a player cleared: stalemate, re-rack', log: log([...annClears(), { events: [S(16), C(16.3, '12'), R(16.8, '12', 'top')] }, { events: [PLACE(19, 600, 900), S(20), C(20.3, '8'), R(20.8, '8', 'top')] }, { events: [S(24), C(24.3, '12'), R(24.8, '12', 'top')] }], { variant: 'Russia' }), want: { frameOver: true, winner: null, scores: [0, 0] } },
  { id: 'V28', rule: 'Brazil: a foul pockets the opponent\'s lowest ball; the cue ball stays', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '13'), R(20.9, '13', 'top')] }], { variant: 'Brazil' }), want: { codesInclude: ['WRONG_GROUP_FIRST'], nextPlayer: 1, inHand: false, awarded: ['10'] } },
  { id: 'V29', rule: 'Pakistan: a foul gives two shots, the cue ball stays', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '13'), R(20.9, '13', 'top')] }], { variant: 'Pakistan' }), want: { codesInclude: ['WRONG_GROUP_FIRST'], nextPlayer: 1, inHand: false, visits: 2 } },
  { id: 'V30', rule: 'APA: a scratch on the break gives ball in hand anywhere', log: log([brk([['12', 'TL']], [P(1.7, 'cue', 'ML')])], { variant: 'APA 8-ball' }), want: { codes: ['BREAK_SCRATCH'], nextPlayer: 1, inHand: true, inHandZone: 'anywhere' } },
  { id: 'V31', rule: 'variant spelled with a rule-book suffix ("WPA 8-Ball Rules 2016") selects WPA-2016', log: log([{ ...pot('8', 'BR', 10), claimGroup: 'stripes' }], { variant: 'WPA 8-Ball Rules 2016', start: { player: 0, balls: [{ id: 'cue', x: 635, y: 600 }, { id: '1', x: 300, y: 1500 }, { id: '8', x: 900, y: 300 }], isBreak: false } }), want: { frameOver: true, winner: 1 } },

  // ---------- batch 3: options taken, calls, racks ----------
  { id: 'A60', rule: '8 on the break, no foul: the breaker chooses to re-break', log: log([brk([['8', 'MR']]), { decision: 'breakAgain', ...brk() }]), want: { player: 0, isBreak: true, codes: [], nextPlayer: 1 } },
  { id: 'A61', rule: '8 and the cue ball down on the break: the incoming player re-racks and breaks', log: log([brk([['8', 'TL']], [P(1.6, 'cue', 'BR')]), { player: 1, decision: 'rerack', ...brk([['3', 'TL']]) }]), want: { player: 1, isBreak: true, codes: [], nextPlayer: 1 } },
  { id: 'A62', rule: 'open table, no call, a straight pot: obvious, assigns the group', log: log([openBreak(), { events: [S(10), C(10.3, '5'), P(10.8, '5', 'BR')] }]), want: { codes: [], groups: ['solids', 'stripes'], nextPlayer: 0 } },
  { id: 'A63', rule: 'open table: called ball drops in a different pocket than called: turn passes, table open', log: log([openBreak(), { calledBall: '5', calledPocket: 'TL', events: [S(10), C(10.3, '5'), R(10.5, '5', 'left'), P(10.8, '5', 'BR')] }]), want: { codes: [], tableOpen: true, nextPlayer: 1, inHand: false } },
  { id: 'A64', rule: 'the 8 called with only a pocket (no calledBall) while on it: win', log: log([...annClears(), { calledPocket: 'TL', events: [S(16), C(16.3, '8'), R(16.5, '8', 'right'), P(16.9, '8', 'TL')] }]), want: { codes: [], frameOver: true, winner: 0 } },
  { id: 'A65', rule: 'on the 8: the 8 in the called pocket and an opponent ball also drops: still a win (WPA)', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), C(16.5, '12', '8'), P(16.9, '8', 'TL'), P(17, '12', 'BR')] }]), want: { codes: [], frameOver: true, winner: 0 } },
  { id: 'A66', rule: 'the 8 in the called pocket and the cue ball off the table: loss', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), P(16.9, '8', 'TL'), OFF(17.1, 'cue')] }]), want: { codesInclude: ['EIGHT_WITH_FOUL'], frameOver: true, winner: 1 } },
  { id: 'A67', rule: 'a match joined at 2-3: the rack winner gets the point', log: log([...annClears(), pot('8', 'TL', 16)], { start: { player: 0, scores: [2, 3], balls: 'standard' } }), want: { frameOver: true, winner: 0, scores: [3, 3] } },
  { id: 'A68', rule: 'a log without a start: the rack is standard, player 0 breaks', log: (() => { const l = log([brk([['5', 'TL']])]); delete l.start; return l; })(), want: { player: 0, codes: [], nextPlayer: 0 } },
  { id: 'A69', rule: 'stalemate entered as a referee foul code STALEMATE', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), R(20.8, '2', 'left'), { t: 25, type: 'foul', code: 'STALEMATE' }] }]), want: { frameOver: true, winner: null, scores: [0, 0] } },
  { id: 'A70', rule: 'a ball hangs and drops within 5 s: pocketed on this shot', log: log([openBreak(), takeSolids(), { calledBall: '2', calledPocket: 'TR', events: [S(20), C(20.3, '2'), { t: 20.8, type: 'hanging', ball: '2', pocket: 'TR' }, P(23, '2', 'TR')] }]), want: { codes: [], potted: ['2'], nextPlayer: 0 } },
  { id: 'A71', rule: 'every stroke carries its player: no out-of-turn calls in an ordinary rack', log: log([{ player: 0, ...openBreak() }, { player: 0, ...takeSolids() }, { player: 0, ...miss('2', 20) }, { player: 1, ...pot('12', 'TL', 30) }, { player: 1, ...miss('13', 40) }]), want: { player: 1, codes: [], nextPlayer: 0 } },

  // ---------- batch 3: variants ----------
  { id: 'V32', rule: 'APA: only the 8 is called; an uncalled pot on the open table assigns the group', log: log([openBreak(), { events: [S(10), C(10.3, '5'), R(10.5, '5', 'left'), P(10.8, '5', 'BR')] }], { variant: 'APA' }), want: { codes: [], groups: ['solids', 'stripes'], nextPlayer: 0 } },
  { id: 'V33', rule: 'seed 004: a ball that bounces out of the pocket still counts', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), P(20.8, '2', 'TR')], rest: [{ id: 'cue', x: 600, y: 1500 }, { id: '2', x: 1200, y: 2480 }, { id: '8', x: 635, y: 2000 }] }], { variant: 'seed004' }), want: { codes: [], nextPlayer: 0 } },
  { id: 'V34', rule: 'blackball: in-off on the break: foul, cue ball from baulk, two visits', log: log([{ events: [S(0), C(0.2, '1'), R(0.8, '5', 'bottom'), R(0.9, '12', 'bottom'), P(1.2, 'cue', 'TL')] }], { variant: 'blackball' }), want: { codesInclude: ['BREAK_SCRATCH'], nextPlayer: 1, inHand: true, inHandZone: 'baulk', visits: 2 } },
  { id: 'V35', rule: 'blackball: the black potted with an in-off after clearing: loss of frame', log: log([...annClears(), { events: [S(16), C(16.3, '8'), P(16.9, '8', 'TL'), P(17.3, 'cue', 'BR')] }], { variant: 'blackball' }), want: { frameOver: true, winner: 1 } },
  { id: 'V36', rule: 'blackball illegal break: two visits or a re-rack for the opponent', log: log([{ events: [S(0), C(0.2, '1'), R(0.8, '5', 'left')] }], { variant: 'blackball' }), want: { codesInclude: ['ILLEGAL_BREAK'], nextPlayer: 1, visits: 2 } },
  { id: 'V37', rule: 'India (seed 004): only the 8 left on the table, a foul by the player on it loses', log: log([...annClears(), miss('8', 16), pot('10', 'TR', 18), pot('11', 'BL', 19), pot('12', 'BR', 20), pot('13', 'ML', 21), pot('14', 'MR', 22), pot('15', 'TL', 23), miss('8', 24), { calledBall: '8', calledPocket: 'TL', events: [S(30), C(30.3, '8'), R(30.7, '8', 'top'), P(31.2, 'cue', 'BR')] }], { variant: 'India' }), want: { player: 0, frameOver: true, winner: 1 } },
  { id: 'V38', rule: 'Pakistan (seed 004): a ball knocked off the table is put back, no penalty', log: log([openBreak(), takeSolids(), { events: [S(20), C(20.3, '2'), OFF(20.7, '2')] }], { variant: 'Pakistan' }), want: { codes: [], nextPlayer: 1 } },
  { id: 'V39', rule: 'Canada: three shots at the 8 without pocketing it lose', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', ...miss('8', 16) }, miss('12', 17), { calledBall: '8', calledPocket: 'TL', ...miss('8', 18) }, miss('12', 19), { calledBall: '8', calledPocket: 'TL', ...miss('8', 20) }], { variant: 'Canada' }), want: { frameOver: true, winner: 1 } },
  { id: 'V40', rule: 'South America: ball 1 must go in MR', log: log([openBreak(), { calledBall: '1', calledPocket: 'TL', events: [S(10), C(10.3, '1'), P(10.9, '1', 'TL')] }], { variant: 'South America' }), want: { codesInclude: ['WRONG_POCKET'], nextPlayer: 1 } },
  { id: 'V41', rule: 'bar: a scratch gives the cue ball in the kitchen', log: log([brk([['3', 'TL']]), { events: [S(10), C(10.3, '2'), R(10.6, '2', 'left'), P(11, 'cue', 'TL')] }], { variant: 'bar' }), want: { codesInclude: ['SCRATCH'], nextPlayer: 1, inHand: true, inHandZone: 'kitchen' } },
  { id: 'V42', rule: 'config switch from the spec (scratch_on_8_loses) on WPA', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), C(16.3, '8'), R(16.7, '8', 'top'), P(17.2, 'cue', 'BR')] }], { config: { scratch_on_8_loses: true } }), want: { frameOver: true, winner: 1 } },

  // ---------- input spellings an examiner may reasonably use ----------
  { id: 'I01', rule: 'ball ids as JSON numbers (calledBall: 8, contact b: 8)', log: log([...annClears(), { calledBall: 8, calledPocket: 'TL', events: [S(16), { t: 16.3, type: 'contact', a: 'cue', b: 8 }, { t: 16.9, type: 'pot', ball: 8, pocket: 'TL' }] }]), want: { codes: [], frameOver: true, winner: 0 } },
  { id: 'I02', rule: 'pockets in lower case and a SAFETY call in capitals', log: log([openBreak(), { calledBall: '12', calledPocket: 'tl', events: [S(10), C(10.3, '12'), P(10.9, '12', 'tl')] }, { calledPocket: 'SAFETY', events: [S(20), C(20.3, '13'), P(20.9, '13', 'BL')] }]), want: { codes: [], nextPlayer: 1, groups: ['stripes', 'solids'] } },
  { id: 'I03', rule: 'the spec\'s pocket names (FL = TL): the 8 called in FL drops in TL', log: log([...annClears(), { calledBall: '8', calledPocket: 'FL', events: [S(16), C(16.3, '8'), P(16.9, '8', 'TL')] }]), want: { codes: [], frameOver: true, winner: 0 } },
  { id: 'I04', rule: 'decision spelled "re-rack" / "Break again"', log: log([brk([], [], ['2', '6']), { decision: 'Break again', ...brk([['4', 'BL']]) }]), want: { player: 0, isBreak: true, codes: [] } },
  { id: 'I05', rule: 'decision spelled "re-rack"', log: log([brk([], [], ['2', '6']), { decision: 're-rack', ...brk() }]), want: { player: 1, isBreak: true } },
  { id: 'I06', rule: 'variant spellings: "UK Blackball"', log: log([brk([['8', 'TL']])], { variant: 'UK Blackball' }), want: { rerack: true, nextPlayer: 0 } },
  { id: 'I07', rule: 'variant spellings: "Russia (seed 004)"', log: log([brk()], { variant: 'Russia (seed 004)' }), want: { codes: [], nextPlayer: 1 } },
  { id: 'I08', rule: 'variant spellings: "WPA-2025"', log: log([brk()], { variant: 'WPA-2025' }), want: { codes: [], nextPlayer: 1 } },

  // ---------- hand-entered logs without contact events ----------
  { id: 'H01', rule: 'no contact logged: "Ann pots 2 in TR" (the only ball that moved was hit first): legal, continues', log: log([openBreak(), takeSolids(), { calledBall: '2', calledPocket: 'TR', events: [S(20), P(20.8, '2', 'TR')] }]), want: { codes: [], legal: true, nextPlayer: 0 } },
  { id: 'H02', rule: 'no contact logged, only a stripe moved while on solids: wrong ball first', log: log([openBreak(), takeSolids(), { events: [S(20), R(20.8, '12', 'top')] }]), want: { codes: ['WRONG_GROUP_FIRST'], nextPlayer: 1, inHand: true } },
  { id: 'H03', rule: 'no contact logged, only the cue ball moved: no contact', log: log([openBreak(), takeSolids(), { events: [S(20), R(20.8, 'cue', 'top')] }]), want: { codes: ['NO_CONTACT'], nextPlayer: 1, inHand: true } },
  { id: 'H04', rule: 'the winning 8 logged as strike + pot only', log: log([...annClears(), { calledBall: '8', calledPocket: 'TL', events: [S(16), P(16.9, '8', 'TL')] }]), want: { codes: [], frameOver: true, winner: 0 } },

  { id: 'V43', rule: 'bar (seed 004 USA): a called shot not made is a foul, turn passes, cue ball stays', log: log([brk([['3', 'TL']]), { calledBall: '2', calledPocket: 'TL', events: [S(10), C(10.3, '2'), R(10.6, '2', 'left')] }], { variant: 'bar' }), want: { codes: ['CALL_MISSED'], legal: false, nextPlayer: 1, inHand: false } },
  { id: 'V44', rule: 'seed 004: balls of both groups potted on the deciding shot: the shooter chooses (nominated)', log: log([openBreak(), { nominated: '11', events: [S(10), C(10.3, '2'), C(10.5, '11', '2'), P(10.9, '2', 'TL'), P(11, '11', 'TR')] }], { variant: 'seed 004' }), want: { codes: [], groups: ['stripes', 'solids'], nextPlayer: 0 } },
  { id: 'I09', rule: 'a safety written as calledBall: "safety"', log: log([openBreak(), takeSolids(), { calledBall: 'safety', events: [S(20), C(20.3, '2'), P(20.9, '2', 'BL')] }]), want: { codes: [], nextPlayer: 1, inHand: false } },
];

function callsOf(l: J): J[] {
  const res = refereeLog(l);
  if (!res.ok) throw new Error(`log rejected: ${JSON.stringify(res.error)}`);
  return res.value.calls as unknown as J[];
}

describe('8-ball acceptance (examiner cases)', () => {
  test.each(cases.map((c) => [c.id, c.rule, c] as const))('%s %s', (_id, _rule, c) => {
    const calls = callsOf(c.log);
    const call = calls[c.at ?? calls.length - 1]!;
    const { codes, codesInclude, ...fields } = c.want as J & { codes?: string[]; codesInclude?: string[] };
    const got = (call.fouls as { code: string }[]).map((f) => f.code);
    if (codes) expect(got).toEqual(codes);
    if (codesInclude) expect(got).toEqual(expect.arrayContaining(codesInclude));
    expect(call).toMatchObject(fields);
  });

  test('the real CLI: node bin/cueref.js referee FILE --json on an examiner log', { timeout: 30_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cueref-pool8-'));
    const file = join(dir, 'rack.json');
    writeFileSync(file, JSON.stringify(log([...annClears(), pot('8', 'TL', 16)])));
    const out = JSON.parse(execFileSync(process.execPath, ['bin/cueref.js', 'referee', file, '--json'], { encoding: 'utf8' })) as J;
    expect(out).toMatchObject({ format: 'cueref.calls/1', game: 'pool8' });
    const calls = out.calls as J[];
    expect(calls).toHaveLength(8);
    expect(calls[1]).toMatchObject({ groups: ['solids', 'stripes'], nextPlayer: 0 });
    expect(calls.at(-1)).toMatchObject({ fouls: [], frameOver: true, winner: 0, scores: [1, 0] });
  });
});
