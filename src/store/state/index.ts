// Stored state: schemas (where to add a field), versions and the steps between them.
export * from './schemas.js';
export { decodeState, encodeState, keyFromDisplay, stateRow, STATE_VERSION, StateInvalidError } from './versions.js';
