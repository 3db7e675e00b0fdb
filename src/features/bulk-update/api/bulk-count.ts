/**
 * The Count calls (src/api/bulk-update.ts) and the upload of a CSV update's rows: direct calls, not
 * outbox entries, since the user waits for the count to confirm it (and a count needs the server).
 */
import { BulkUpdateCount, CsvRowsReceived, bulkUpdatePaths, type BasicBulkUpdate, type BulkCountCall, type CsvBulkUpdate, type CsvRowBatch } from '../../../api/bulk-update';
import { apiRequest } from '../../../api/http';

export function countBulkUpdate(dbId: number, call: BulkCountCall, body: BasicBulkUpdate | CsvBulkUpdate, signal?: AbortSignal): Promise<BulkUpdateCount> {
  return apiRequest({ method: 'POST', path: bulkUpdatePaths.call(dbId, call), body, auth: 'header', schema: BulkUpdateCount, ...(signal ? { signal } : {}) });
}

/** One batch of rows; a repeat (after a lost answer) adds nothing on the server. */
export function sendCsvRows(dbId: number, batch: CsvRowBatch, signal?: AbortSignal): Promise<CsvRowsReceived> {
  return apiRequest({ method: 'POST', path: bulkUpdatePaths.call(dbId, 'rows'), body: batch, auth: 'header', schema: CsvRowsReceived, ...(signal ? { signal } : {}) });
}
