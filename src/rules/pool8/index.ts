/** 8-ball pool referee (WPA by default; APA, bar, blackball, WEPF, IEPF and national profiles via the log's `variant`). */
export { pool8Rules, applyPool8Stroke } from './engine.js';
export type { Pool8Call } from './call.js';
export { PROFILES, VARIANT_NAMES, resolveProfile, type Pool8Flags, type Pool8Profile, type InHandZone } from './profiles.js';
export type { Pool8State } from './state.js';
