/**
 * POST api/indexes?dbId=&archiveId=|archId=&token= (the archive-ops spec §7 "Field validation"):
 * checks a field payload [{ID, VAL, MVAL}] in wire form with the client's own rules
 * (src/fields/rules.ts) and answers [{ID, Code, Key?, Message?, Normalized?, NormalizedMVAL?}]
 * (src/fields/check-contract.ts), adding what only the server knows: -4 for a field that is not
 * one of the archive's fields, -1 FIELD_NOT_IN_LIST for a fixed-list (Prop 64) or type-ahead
 * list field (a List, no Prop 128) whose value is not an item of its list. Needs view (1) on the archive. Like every non-GET call it is refused
 * for web-only read-only licences (type 4) by the hook in server/app.ts: such users cannot edit.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { IndexCheckRequest, IndexCheckResponse, type IndexCheckResult } from '../../src/fields/check-contract.js';
import { FIELD_MESSAGE_KEYS, FIELD_NOT_IN_LIST_KEY, FIELD_REGEX_MISMATCH_KEY } from '../../src/fields/codes.js';
import { isMultiField, validateFieldValue } from '../../src/fields/rules.js';
import type { Queryable } from '../db/store.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { archiveFields, fieldToWire, type FieldRow } from '../search/model.js';
import { archiveWithRights, requireDatabase } from '../services/documents.js';

const VIEW = 1;
const DYNAMIC_LIST = 128;
const Id = z.coerce.number().int().positive().max(2_147_483_647);
const Query = z
  .looseObject({ dbId: Id, archiveId: Id.optional(), archId: Id.optional() })
  .refine((q) => q.archiveId !== undefined || q.archId !== undefined, { message: 'archiveId is required', path: ['archiveId'] });

/** English texts of the keys, for clients that show Message as it is. */
const MESSAGES: Record<string, string> = {
  [FIELD_MESSAGE_KEYS[-1]]: 'Invalid integer or decimal value',
  [FIELD_MESSAGE_KEYS[-2]]: 'Invalid date',
  [FIELD_MESSAGE_KEYS[-3]]: 'The value is longer than the field allows',
  [FIELD_MESSAGE_KEYS[-4]]: 'Field not found in the archive',
  [FIELD_MESSAGE_KEYS[-5]]: 'This field is required',
  [FIELD_REGEX_MISMATCH_KEY]: 'The value does not have the required format',
  [FIELD_NOT_IN_LIST_KEY]: 'The value is not an item of the list',
};

/** The items of a fixed list, case-insensitively: lower-case value to the list's spelling. */
async function listItems(db: Queryable, listId: number): Promise<Map<string, string>> {
  const kind = (await db.query<{ kind: number }>('SELECT kind FROM lists WHERE id = $1', [listId])).rows[0]?.kind;
  const r =
    kind === 2
      ? await db.query<{ value: string }>('SELECT DISTINCT value FROM dynamic_list_rows WHERE list_id = $1', [listId])
      : await db.query<{ value: string }>('SELECT value FROM list_values WHERE list_id = $1', [listId]);
  return new Map(r.rows.map((x) => [x.value.toLowerCase(), x.value]));
}

export function indexesValidateRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;

  app.post('/api/indexes', async (request) => {
    const auth = requireAuth(request);
    const q = Query.parse(request.query ?? {});
    const archiveId = (q.archiveId ?? q.archId)!;
    const items = IndexCheckRequest.parse(request.body ?? []);
    await requireDatabase(store, q.dbId);
    const archive = await archiveWithRights(store, q.dbId, auth.userId, archiveId);
    if ((archive.rights & VIEW) === 0) throw Errors.forbidden('You do not have permission to view this archive');

    const fields = new Map<number, FieldRow>((await archiveFields(store, archiveId)).map((f) => [f.id, f]));
    const lists = new Map<number, Map<string, string>>();
    const out: IndexCheckResult[] = [];
    for (const item of items) {
      const row = fields.get(item.ID);
      if (!row) {
        out.push({ ID: item.ID, Code: -4, Key: FIELD_MESSAGE_KEYS[-4], Message: MESSAGES[FIELD_MESSAGE_KEYS[-4]] });
        continue;
      }
      const field = fieldToWire(row);
      const r = validateFieldValue(field, { VAL: item.VAL, MVAL: item.MVAL }, null);
      if (r.code !== 0) {
        out.push({ ID: item.ID, Code: r.code, ...(r.key ? { Key: r.key } : {}), Message: r.message ?? MESSAGES[r.key ?? ''] ?? 'Invalid value' });
        continue;
      }
      const multi = isMultiField(field);
      let values = multi ? (r.normalizedMVAL ?? []) : [r.normalized ?? ''];
      // Fixed lists and type-ahead lists (a List without Prop 128): "a user-typed list value must
      // match a list item" (the archive-ops spec §5). Dynamic lists depend on the document's other
      // values and are checked on save (PUT FieldData).
      if (row.list_id !== null && (row.prop & DYNAMIC_LIST) === 0) {
        let known = lists.get(row.list_id);
        if (!known) lists.set(row.list_id, (known = await listItems(store, row.list_id)));
        const missing = values.find((v) => v !== '' && !known.has(v.toLowerCase()));
        if (missing !== undefined) {
          out.push({ ID: item.ID, Code: -1, Key: FIELD_NOT_IN_LIST_KEY, Message: `'${missing}' is not an item of the list` });
          continue;
        }
        values = values.map((v) => (v === '' ? v : (known.get(v.toLowerCase()) ?? v)));
      }
      out.push({ ID: item.ID, Code: 0, Normalized: values[0] ?? '', ...(multi ? { NormalizedMVAL: values } : {}) });
    }
    return IndexCheckResponse.parse(out);
  });
}
