/** The Novus referee (../shared/spec/rules-novus.md): one module behind the rules contract. */
export { novusRules, applyNovusStroke, describeNovus, type NovusCall, type LossOfTurn } from './engine.js';
export type { NovusState } from './state.js';
export { standardLayout, STRIKER, PAWN_IDS } from './state.js';
