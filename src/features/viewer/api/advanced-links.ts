/** GET api/AdvancedLinks/databases/{db}?archiveId= (src/api/advanced-links.ts): the links shown for a document of the archive. */
import { useQuery } from '@tanstack/react-query';
import { AdvancedLinkList, advancedLinkPaths } from '../../../api/advanced-links';
import { apiRequest } from '../../../api/http';

export function useAdvancedLinks(scope: string | null, db: number, archiveId: number) {
  return useQuery({
    queryKey: ['advanced-links', scope, db, archiveId],
    queryFn: ({ signal }) => apiRequest({ path: advancedLinkPaths.links(db), query: { archiveId }, auth: 'header', schema: AdvancedLinkList, signal }),
    enabled: scope !== null,
    staleTime: 5 * 60 * 1000,
    retry: false,
    meta: { handlesOwnErrors: true },
  });
}
