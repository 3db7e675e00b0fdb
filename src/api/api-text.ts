/**
 * The words of the contract's errors (http.ts, error-handler.ts). The contract imports no i18n
 * (docs/architecture.md "Imports run one way"): the app plugs its translator in at start
 * (configureApiText in main.tsx) and every message is then in the user's language. Until then, and
 * in the service worker, which loads no i18next, the English text below is used: it is the same as
 * public/languages/en.json (tests/api/api-text.test.ts keeps them equal).
 */
export const API_TEXT = {
  ERROR_NETWORK: 'The server could not be reached ({{method}} {{url}}).',
  ERROR_INVALID_ANSWER: "The server's answer to {{method}} {{url}} was not in the expected format.",
  ERROR_DEFAULT: '{{method}} {{url}} {{statusText}}',
  ERROR_UNKNOWN: 'An unknown error occured',
  ERROR_CANT_OBTAIN_LICENSE: 'No licence could be obtained: {{message}}',
  SESSION_ENDED_MESSAGE: 'Your session has ended. Sign in again to continue.',
  LICENSE_EXPIRED_TITLE: 'Licence expired',
  LICENSE_EXPIRED_MESSAGE: 'Your licence has expired. Sign in again to continue.',
} as const;

export type ApiTextKey = keyof typeof API_TEXT;
export type ApiTextParams = Record<string, string>;
export type Translate = (key: ApiTextKey, params?: ApiTextParams) => string;

const english: Translate = (key, params = {}) => API_TEXT[key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');

let translate: Translate = english;

/** The app's translator (i18next's t); null goes back to the English text. */
export function configureApiText(t: Translate | null): void {
  translate = t ?? english;
}

export function apiText(key: ApiTextKey, params?: ApiTextParams): string {
  return translate(key, params);
}
