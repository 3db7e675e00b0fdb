/**
 * A failed outbox entry in the user's words (drain.ts's failure policy): what failed, on which
 * document, and why. Worded when shown, from the data the drain stored (`reason`), so it follows a
 * language change. `detail` is the technical text (the server's Message, else method, path and
 * status) for whoever needs to report the problem.
 */
import type { OutboxEntry } from '../../db/db';
import type { AppTFunction as TFunction } from '../../i18n/t-function';

export interface FailureWords {
  /** "Your change to {document} was not saved." */
  summary: string;
  /** Why, or null when the entry has no reason stored (entries from before the policy). */
  why: string | null;
  detail: string | null;
}

/** The catalogue key of a refusal a kind kept in its meta (e.g. the export request's refusedKey). */
export function refusedKeyOf(entry: Pick<OutboxEntry, 'meta'>): string | null {
  const k = (entry.meta as { refusedKey?: unknown } | null | undefined)?.refusedKey;
  return typeof k === 'string' && k ? k : null;
}

/**
 * `exists` says whether the app has words for a key: a refusal whose key it knows (ERROR_EXPORT_PDF_PENDING
 * ...) is said in the user's language, not in the server's English Message.
 */
export function failureWords(entry: OutboxEntry, document: string, t: TFunction, exists: (key: string) => boolean = () => false): FailureWords {
  const r = entry.reason;
  const key = refusedKeyOf(entry);
  let why: string | null = null;
  if (r?.code === 'refused' && key && exists(key)) why = t('OUTBOX_REASON_REFUSED', { message: t(key as 'ERROR_UNKNOWN') });
  else if (r?.code === 'refused') why = r.message ? t('OUTBOX_REASON_REFUSED', { message: r.message }) : t('OUTBOX_REASON_REFUSED_STATUS', { status: r.status });
  else if (r?.code === 'serverError') why = t('OUTBOX_REASON_SERVER_ERROR', { count: r.count, status: r.status });
  else if (r?.code === 'error') why = t('OUTBOX_REASON_ERROR', { count: r.count });
  return { summary: t('OUTBOX_FAILED_SUMMARY', { document }), why, detail: entry.error ?? null };
}
