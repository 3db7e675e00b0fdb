/**
 * Installs re2js as the field RegEx engine (regex.ts) when imported: the server and the workers that
 * check values import this first, so that every check they make has the engine.
 */
import { RE2JS } from 're2js';
import { installRegexEngine } from './regex';

installRegexEngine(RE2JS);
