/**
 * Texts kept as words (a message key and its values: db.ts Words, JobFailureParts) said in the
 * user's language when shown, so what the outbox and the jobs table keep follows a language change
 * and what the server sends in English (a job's failure reasons) is said in the user's language.
 * `exists` says whether the app has words for a key (i18n.exists); a key it does not know (a newer
 * server's) is said by the fallback text instead.
 */
import type { JobFailureParts, Words } from '../db/db';
import type { AppTFunction as TFunction } from './t-function';

type Exists = (key: string) => boolean;

// Keys come from stored data, not the typed catalogue: checked with `exists` before use.
const say = (t: TFunction, key: string, vars?: Record<string, string | number>): string => (t as unknown as (k: string, v?: object) => string)(key, vars);

/** Stored words said now, or `fallback` when there are none or the app has no words for their key. */
export function sayWords(words: Words | null | undefined, t: TFunction, exists: Exists, fallback: string): string {
  return words && exists(words.key) ? say(t, words.key, words.vars) : fallback;
}

/**
 * A job's failure reason in the user's words: its key with its parts (Params.rule itself a key, a
 * field rule's), else the server's English reason.
 */
export function failureReason(p: Pick<JobFailureParts, 'reason' | 'reasonKey' | 'reasonParams'>, t: TFunction, exists: Exists): string {
  if (!p.reasonKey || !exists(p.reasonKey)) return p.reason;
  const vars = { ...p.reasonParams };
  if (typeof vars.rule === 'string') {
    if (!exists(vars.rule)) return p.reason;
    vars.rule = say(t, vars.rule);
  }
  return say(t, p.reasonKey, vars);
}

/** 'DocID {id}: reason' or 'Line {n}: reason' in the user's language. */
export function failureText(p: JobFailureParts, t: TFunction, exists: Exists): string {
  const reason = failureReason(p, t, exists);
  return p.line !== undefined ? t('JOB_FAILURE_LINE', { line: p.line, reason }) : t('JOB_FAILURE_DOC', { id: p.docId, reason });
}

/**
 * A title for something the outbox keeps: worded now (the fallback) and kept as words, so the tray
 * says it in the language of the moment (meta.title and meta.titleWords).
 */
export function worded(t: TFunction, key: string, vars: Record<string, string | number>): { title: string; titleWords: Words } {
  return { title: say(t, key, vars), titleWords: { key, vars } };
}
