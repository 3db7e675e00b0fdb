/**
 * The words of a content search as the database matches them (lexemes of the 'english' text search
 * configuration, as websearch_to_tsquery makes them): Hits counts how many times the positive ones
 * occur in a document (their positions in content_tsv), and a search of one word can read its
 * pages sorted by hits and its count from document_terms (018_document_terms.sql).
 */
import type { Queryable } from '../db/store.js';

export interface TextWords {
  /** The lexemes the search looks for (excluded words left out), each once. */
  lexemes: string[];
  /** The one lexeme when the query is that lexeme and nothing else. */
  single?: string;
}

const CACHE_MAX = 500;
const cache = new Map<string, TextWords>();

/**
 * The positive lexemes of a tsquery's text form ('a' & !( 'b' <-> 'c' ) | 'd''s'): quoted lexemes
 * ('' stands for a quote, a backslash escapes the next character), skipping any a `!` applies to,
 * directly or through the parentheses it opens.
 */
export function positiveLexemes(tsquery: string): string[] {
  const out: string[] = [];
  const negated: boolean[] = [];
  let not = false;
  for (let i = 0; i < tsquery.length; i++) {
    const c = tsquery[i];
    if (c === '!') not = !not;
    else if (c === '(') {
      negated.push((negated[negated.length - 1] ?? false) !== not);
      not = false;
    } else if (c === ')') negated.pop();
    else if (c === "'") {
      let lexeme = '';
      for (i++; i < tsquery.length; i++) {
        const d = tsquery[i] as string;
        if (d === '\\' && i + 1 < tsquery.length) lexeme += tsquery[++i];
        else if (d === "'" && tsquery[i + 1] === "'") {
          lexeme += "'";
          i++;
        } else if (d === "'") break;
        else lexeme += d;
      }
      if ((negated[negated.length - 1] ?? false) === not && !out.includes(lexeme)) out.push(lexeme);
      not = false;
    }
  }
  return out;
}

/** The words of content-search text `q` (kept per text: the configuration never changes while the server runs). */
export async function textWords(db: Queryable, q: string): Promise<TextWords> {
  const hit = cache.get(q);
  if (hit) return hit;
  const r = await db.query<{ n: number; q: string }>(`SELECT numnode(q) AS n, q::text AS q FROM websearch_to_tsquery('english', $1) q`, [q]);
  const row = r.rows[0];
  const lexemes = positiveLexemes(row?.q ?? '');
  const words: TextWords = Number(row?.n) === 1 && lexemes.length === 1 ? { lexemes, single: lexemes[0] } : { lexemes };
  cache.set(q, words);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
  return words;
}
