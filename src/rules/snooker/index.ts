export { snookerRules } from './engine.js';
