/**
 * The validation worker: exposes workers/validation.ts over Comlink. Started and ended by
 * src/fields/validation-bridge.ts.
 */
import { expose } from 'comlink';
import { validate } from './validation';

expose({ validate });
