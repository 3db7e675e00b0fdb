/**
 * The validation worker: exposes src/fields/validation.ts over Comlink. Started and ended by
 * src/features/editing/validation-bridge.ts.
 */
import '../src/fields/regex-engine';
import { expose } from 'comlink';
import { validate } from '../src/fields/validation';

expose({ validate });
