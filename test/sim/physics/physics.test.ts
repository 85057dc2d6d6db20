/**
 * Physics known answers: stun, half-ball cut, rolling distance, slide-to-roll, cushion angles,
 * contact timing, pockets, Novus discs; and invariants (energy, overlap, determinism).
 */
import { describe, expect, it } from 'vitest';
import { builtinProfile } from '../../../src/core/table.js';
import { buildTableGeom, defaultPhysics, makeBall, simulate, strikeBall, type BallState, type PhysEvent, type PhysicsParams } from '../../../src/sim/physics/index.js';
import { cutAngleAim } from '../../../src/sim/scenario/aim.js';

const snooker = builtinProfile('snooker');
const geom = buildTableGeom(snooker);
const P = defaultPhysics('snooker');
const R = 26.25;
const g = P.gMmPerS2;
const deg = (r: number) => (r * 180) / Math.PI;

function ball(id: string, x: number, y: number): BallState {
  return makeBall(id, x, y, R, 142);
}

/** Run until the first event matching `pick`, returning a copy of the balls just after it. */
function stateAfter(balls: BallState[], pick: (e: PhysEvent) => boolean, p: PhysicsParams = P): { event: PhysEvent; balls: BallState[] } {
  let hit: { event: PhysEvent; balls: BallState[] } | undefined;
  simulate(balls, geom, p, {
    t0: 0,
    onEvent: (e, bs) => {
      if (pick(e)) {
        hit = { event: e, balls: bs.map((b) => ({ ...b, q: [...b.q] as BallState['q'] })) };
        return true;
      }
      return false;
    },
  });
  if (!hit) throw new Error('event not reached');
  return hit;
}

describe('sliding, rolling and the slide-to-roll transition', () => {
  it('a rolling ball rolls v²/(2 μr g) in v/(μr g) seconds', () => {
    const v = 700;
    const b = ball('white', 889, 400);
    b.vy = v;
    b.wx = -v / R; // rolling: ω locked to v
    const run = simulate([b], geom, P, { t0: 0 });
    const dist = b.y - 400;
    expect(dist).toBeCloseTo((v * v) / (2 * P.muRoll * g), 3);
    expect(run.endT).toBeCloseTo(v / (P.muRoll * g), 6);
    expect(run.events.map((e) => e.type)).toEqual(['cross']); // the baulk line, nothing else
  });

  it('a stun ball (no spin) slides, then rolls at 5/7 of its speed after 2v/(7 μs g)', () => {
    const v = 2000;
    const b = ball('white', 889, 300);
    strikeBall(b, { angleRad: Math.PI / 2, speedMmPerS: v, top: 0 }, false);
    const tRoll = (2 * v) / (7 * P.muSlide * g);
    const run = simulate([b], geom, P, { t0: 0, sampleTimes: [tRoll * 0.5, tRoll + 1e-6, tRoll + 0.1] });
    const [mid, atRoll, later] = run.samples.map((s) => s.balls[0]!);
    // Still sliding halfway: slip ≠ 0.
    expect(Math.abs(mid!.vy + R * mid!.wx)).toBeGreaterThan(100);
    expect(atRoll!.vy).toBeCloseTo((5 / 7) * v, 1);
    expect(atRoll!.vy + R * atRoll!.wx).toBeCloseTo(0, 3);
    // Then only rolling resistance: v drops by μr g per second.
    expect(atRoll!.vy - later!.vy).toBeCloseTo(P.muRoll * g * 0.1, 2);
  });

  it('natural roll from the cue (top = 0.8, tip 2R/5 above centre) starts rolling at once', () => {
    const b = ball('white', 889, 300);
    strikeBall(b, { angleRad: Math.PI / 2, speedMmPerS: 1000, top: 0.8 }, false);
    expect(b.vy + R * b.wx).toBeCloseTo(0, 6);
  });

  it('squirt: right-hand side sends the cue ball left of the cue line, in proportion to the side', () => {
    for (const side of [1, 0.5, -1]) {
      const b = ball('white', 889, 300);
      strikeBall(b, { angleRad: Math.PI / 2, speedMmPerS: 2000, side }, false, P.squirtDegAtFullSide);
      expect(deg(Math.atan2(b.vy, b.vx)) - 90).toBeCloseTo(side * P.squirtDegAtFullSide, 9);
      expect(Math.hypot(b.vx, b.vy)).toBeCloseTo(2000, 9);
      expect(Math.sign(b.wz)).toBe(-Math.sign(side));
    }
  });

  it('side spin decays on its own at 5 μsp g/(2R)', () => {
    const b = ball('white', 889, 1000);
    b.wz = 20;
    const run = simulate([b], geom, P, { t0: 0 });
    expect(run.endT).toBeCloseTo(20 / ((5 * P.muSpin * g) / (2 * R)), 3);
    expect(b.x).toBe(889);
    expect(b.y).toBe(1000);
  });
});

describe('ball–ball collisions', () => {
  it('a full-ball stun shot stops the cue ball dead and sends the object ball on', () => {
    // Cue ball sliding with no spin at the moment of contact (a stun): give it backspin exactly
    // matching the distance, or — simplest — start it just short of the object ball.
    const cue = ball('white', 889, 1000);
    const obj = ball('red1', 889, 1000 + 2 * R + 5);
    strikeBall(cue, { angleRad: Math.PI / 2, speedMmPerS: 2000, top: 0 }, false);
    const { balls } = stateAfter([cue, obj], (e) => e.type === 'contact');
    const [c, o] = balls;
    // Restitution e leaves the cue ball (1 − e)/2 of its speed; friction can only reduce it further.
    expect(Math.hypot(c!.vx, c!.vy)).toBeLessThan(((1 - P.eBall) / 2) * 2000 + 1);
    expect(o!.vy).toBeGreaterThan(((1 + P.eBall) / 2) * 1990);
    // And it stays (within a couple of centimetres) where it hit.
    const cue2 = ball('white', 889, 1000);
    const obj2 = ball('red1', 889, 1000 + 2 * R + 5);
    strikeBall(cue2, { angleRad: Math.PI / 2, speedMmPerS: 2000, top: 0 }, false);
    const run = simulate([cue2, obj2], geom, P, { t0: 0 });
    expect(run.events[0]).toMatchObject({ type: 'contact', a: 'white', b: 'red1' });
    expect(Math.abs(cue2.y - (1000 + 5))).toBeLessThan(20);
    expect(Math.abs(cue2.x - 889)).toBeLessThan(1);
  });

  it('a stun from a metre: screw chosen so the backspin is gone at the contact stops the cue ball dead', () => {
    // Sliding with backspin, ωx falls at 5 μs g/(2R); choose ωx0 so it reaches 0 after 1 m.
    const v0 = 3000, d = 1000, k = P.muSlide * g;
    const t0 = (v0 - Math.sqrt(v0 * v0 - 2 * k * d)) / k;
    const wx0 = (5 * k * t0) / (2 * R);
    const top = -(wx0 * 4 * R) / (5 * v0); // tip offset fraction of R/2
    expect(top).toBeGreaterThan(-1);
    const cue = ball('white', 889, 800);
    const obj = ball('red1', 889, 800 + d + 2 * R);
    strikeBall(cue, { angleRad: Math.PI / 2, speedMmPerS: v0, top }, false);
    const { event, balls } = stateAfter([cue, obj], (e) => e.type === 'contact');
    expect(event.t).toBeCloseTo(t0, 6);
    const vContact = v0 - k * t0;
    expect(Math.hypot(balls[0]!.vx, balls[0]!.vy)).toBeLessThan(((1 - P.eBall) / 2) * vContact + 1);
    expect(Math.abs(balls[0]!.wx)).toBeLessThan(1e-6);
  });

  it('a half-ball cut sends the object ball off near 30°', () => {
    const cue = ball('white', 600, 800);
    const obj = ball('red1', 900, 1400);
    const angle = cutAngleAim(cue, obj, 2 * R, 30);
    strikeBall(cue, { angleRad: angle, speedMmPerS: 2500, top: 0.8 }, false);
    const { balls } = stateAfter([cue, obj], (e) => e.type === 'contact');
    const o = balls[1]!;
    let dep = deg(Math.atan2(o.vy, o.vx) - angle);
    // Positive cut: the object ball goes to the right of the cue ball's path (clockwise).
    expect(dep).toBeLessThan(0);
    dep = -dep;
    // Ideal 30°; cut-induced throw (ball–ball friction) bends it a degree or two towards the cue line.
    expect(dep).toBeGreaterThan(27.5);
    expect(dep).toBeLessThanOrEqual(30.01);
    // The cue ball leaves at about 90° to the object ball (a little less with topspin: it bends forward later).
    const c = balls[0]!;
    const sep = Math.abs(deg(Math.atan2(c.vy, c.vx) - Math.atan2(o.vy, o.vx)));
    expect(sep).toBeGreaterThan(75);
    expect(sep).toBeLessThan(95);
  });

  it('with frictionless balls the half-ball cut is exactly 30° (pure geometry)', () => {
    const p = { ...P, muBall: 0 };
    const cue = ball('white', 600, 800);
    const obj = ball('red1', 900, 1400);
    const angle = cutAngleAim(cue, obj, 2 * R, -30);
    strikeBall(cue, { angleRad: angle, speedMmPerS: 2500 }, false);
    const { balls } = stateAfter([cue, obj], (e) => e.type === 'contact', p);
    const o = balls[1]!;
    expect(deg(Math.atan2(o.vy, o.vx) - angle)).toBeCloseTo(30, 3);
  });

  it('contact time matches the closed form to a microsecond', () => {
    // A rolling ball at v covers d = v t − ½ μr g t² before touching a ball d + 2R ahead.
    const v = 1200, d = 700;
    const cue = ball('white', 889, 500);
    cue.vy = v;
    cue.wx = -v / R;
    const obj = ball('red1', 889, 500 + d + 2 * R);
    const a = P.muRoll * g;
    const tExact = (v - Math.sqrt(v * v - 2 * a * d)) / a;
    const { event } = stateAfter([cue, obj], (e) => e.type === 'contact');
    expect(Math.abs(event.t - tExact)).toBeLessThan(1e-6);
  });
});

describe('cushions and pockets', () => {
  it('a frictionless cushion returns the normal speed times e and keeps the tangential speed', () => {
    const p = { ...P, muCushion: 0 };
    const b = ball('white', 400, 1000);
    // 45° into the left cushion, sliding with no spin so the cloth does not bend the path before it.
    b.vx = -1000;
    b.vy = 1000;
    b.wx = -1000 / R; // no slip along y…
    b.wy = -1000 / R; // …nor along x: rolling in the incoming direction
    const { event, balls } = stateAfter([b], (e) => e.type === 'cushion', p);
    expect(event).toMatchObject({ type: 'cushion', ball: 'white', side: 'left' });
    const o = balls[0]!;
    const vin = 1000 - P.muRoll * g * event.t * Math.SQRT1_2; // per axis, after rolling there
    expect(o.vx).toBeCloseTo(p.eCushion * vin, 0);
    expect(o.vy).toBeCloseTo(vin, 0);
    // The rebound angle from the cushion normal: tan θout = tan θin / e.
    expect(deg(Math.atan2(o.vy, o.vx))).toBeCloseTo(deg(Math.atan(1 / p.eCushion)), 1);
  });

  it('a ball frozen to a cushion and driven into it makes no cushion contact; a ball rolled into it from 400 mm away makes one', () => {
    // rules-pool8 "rail after contact": a frozen ball must leave the rail and come back.
    const frozen = ball('red1', 889, snooker.bed.length - R);
    const white = ball('white', 889, snooker.bed.length - R - 400);
    white.vy = 1500;
    white.wx = -1500 / R;
    const run = simulate([white, frozen], geom, P, { t0: 0 });
    const cushions = run.events.filter((e) => e.type === 'cushion');
    expect(run.events.some((e) => e.type === 'contact')).toBe(true);
    // The red leaves the top cushion after the push (it rebounds off it): no contact for it then;
    // the white, following it, meets the red again or the cushion, never counted for the red.
    expect(cushions.filter((e) => e.ball === 'red1' && e.t < run.events.find((x) => x.type === 'contact')!.t + 0.005)).toEqual([]);
    // A ball rolled into the same cushion from 400 mm away: one contact.
    const free = ball('red1', 889, snooker.bed.length - R - 400);
    free.vy = 800;
    free.wx = -800 / R;
    const alone = simulate([free], geom, P, { t0: 0 });
    expect(alone.events.filter((e) => e.type === 'cushion')).toEqual([expect.objectContaining({ ball: 'red1', side: 'top' })]);
  });

  it('side spin bends the cushion rebound: running side lengthens the angle, check side shortens it', () => {
    const angleOut = (side: number) => {
      const b = ball('white', 400, 1000);
      strikeBall(b, { angleRad: (3 * Math.PI) / 4, speedMmPerS: 1500, side }, false);
      const { balls } = stateAfter([b], (e) => e.type === 'cushion');
      return deg(Math.atan2(balls[0]!.vy, balls[0]!.vx));
    };
    const plain = angleOut(0), left = angleOut(-1), right = angleOut(1);
    // Travelling up-left into the left cushion, right-hand side is running side.
    expect(right).toBeLessThan(plain);
    expect(left).toBeGreaterThan(plain);
  });

  it('a ball sent into a corner pocket is potted there, with the time it crossed the drop line', () => {
    const b = ball('red1', 1500, 3300);
    strikeBall(b, { angleRad: Math.atan2(3569 - 3300, 1778 - 1500), speedMmPerS: 1500, top: 0.8 }, false);
    const run = simulate([b], geom, P, { t0: 2 });
    expect(run.events).toHaveLength(1);
    expect(run.events[0]).toMatchObject({ type: 'pot', ball: 'red1', pocket: 'TR' });
    expect(run.events[0]!.t).toBeGreaterThan(2.1);
    expect(b.where).toBe('pocketed');
  });

  it('a ball into a middle pocket is potted in ML; one along the cushion hits the jaw', () => {
    const b = ball('blue', 400, 1784.5);
    strikeBall(b, { angleRad: Math.PI, speedMmPerS: 1200 }, false);
    const run = simulate([b], geom, P, { t0: 0 });
    expect(run.events).toEqual([expect.objectContaining({ type: 'pot', ball: 'blue', pocket: 'ML' })]);
    // Into the mouth too close to the upper jaw: it hits the jaw nose.
    const c = ball('white', 400, 1810);
    strikeBall(c, { angleRad: Math.PI, speedMmPerS: 1500, top: 0.8 }, false);
    const r2 = simulate([c], geom, P, { t0: 0 });
    const first = r2.events[0]!;
    expect(first.type === 'cushion' && first.jaw === 'ML').toBe(true);
  });

  it('a scripted jump off the table at the first cushion', () => {
    const b = ball('red1', 889, 3000);
    strikeBall(b, { angleRad: Math.PI / 2, speedMmPerS: 3000 }, false);
    const run = simulate([b], geom, P, { t0: 0, script: { jumpOff: [{ ball: 'red1', atCushion: 1 }] } });
    expect(run.events).toEqual([expect.objectContaining({ type: 'offTable', ball: 'red1' })]);
    expect(b.where).toBe('offTable');
  });

  it('a jump shot passes over the jumped ball and reports it', () => {
    const cue = ball('white', 889, 1000), pink = ball('pink', 889, 1300), black = ball('black', 889, 1700);
    strikeBall(cue, { angleRad: Math.PI / 2, speedMmPerS: 2500 }, false);
    const run = simulate([cue, pink, black], geom, P, { t0: 0, script: { jumpOver: { ball: 'white', over: 'pink' } } });
    expect(run.events[0]).toMatchObject({ type: 'jump', ball: 'white', over: 'pink' });
    expect(run.events[1]).toMatchObject({ type: 'contact', a: 'white', b: 'black' });
    expect(pink.y).toBe(1300);
  });
});

describe('Novus discs', () => {
  const novus = builtinProfile('novus');
  const ng = buildTableGeom(novus);
  const NP = defaultPhysics('novus');
  it('a disc slides v²/(2 μ g), with no rolling phase', () => {
    const s = makeBall('striker', 500, 100, 19, NP.cueBallMassG);
    s.vy = 1500;
    const run = simulate([s], ng, NP, { t0: 0 });
    expect(s.y - 100).toBeCloseTo((1500 * 1500) / (2 * NP.muSlide * g), 3);
    expect(run.endT).toBeCloseTo(1500 / (NP.muSlide * g), 6);
  });
  it('the heavier striker follows through after a full hit on a pawn', () => {
    const s = makeBall('striker', 500, 100, 19, NP.cueBallMassG);
    const a = makeBall('a1', 500, 300, 16, NP.ballMassG);
    s.vy = 1500;
    const { balls } = (() => {
      let out: BallState[] = [];
      simulate([s, a], ng, NP, { t0: 0, onEvent: (e, bs) => ((out = bs.map((b) => ({ ...b }))), e.type === 'contact') });
      return { balls: out };
    })();
    const m1 = NP.cueBallMassG, m2 = NP.ballMassG, e = NP.eBall;
    const v = balls[0]!.vy + balls[1]!.vy * 0; // striker after
    // 1-D impact: v1' = v (m1 − e m2)/(m1 + m2), v2' = v m1 (1 + e)/(m1 + m2).
    const ratio = balls[1]!.vy / v;
    expect(balls[0]!.vy).toBeGreaterThan(0);
    expect(ratio).toBeCloseTo((m1 * (1 + e)) / (m1 - e * m2), 6);
  });
});

describe('marking lines', () => {
  it('a ball crossing the baulk line is reported at the exact time, with its direction', () => {
    const b = ball('white', 889, 300);
    b.vy = 800;
    b.wx = -800 / R;
    const run = simulate([b], geom, P, { t0: 0 });
    const cross = run.events.find((e) => e.type === 'cross')!;
    expect(cross).toMatchObject({ type: 'cross', ball: 'white', line: 'baulkLine', dir: 'up' });
    // 437 mm of rolling at 800 mm/s with deceleration μr g.
    const a = P.muRoll * g;
    expect(cross.t).toBeCloseTo((800 - Math.sqrt(800 * 800 - 2 * a * 437)) / a, 9);
  });
});
