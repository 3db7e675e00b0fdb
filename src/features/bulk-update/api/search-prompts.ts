/** The prompts of the selected search, for a CSV search update's mapping (GET api/dbs/{db}/searches/{id}). */
import { apiRequest } from '../../../api/http';
import { SearchDetail, type SearchPrompt } from '../../../api/search';

export async function fetchSearchPrompts(dbId: number, searchId: number): Promise<SearchPrompt[]> {
  const d = await apiRequest({ path: `/api/dbs/${dbId}/searches/${searchId}`, schema: SearchDetail });
  return d.Detail;
}
