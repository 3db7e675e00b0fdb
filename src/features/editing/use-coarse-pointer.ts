/** Whether the pointer is coarse (a finger): touch devices edit in the side panel, in-cell editing fights the on-screen keyboard. */
import { useSyncExternalStore } from 'react';

// One MediaQueryList, made on first use: every render of the results screen reads it.
let coarseList: MediaQueryList | null | undefined;
const coarseQuery = () => {
  if (coarseList === undefined) coarseList = typeof matchMedia === 'function' ? matchMedia('(pointer: coarse)') : null;
  return coarseList;
};
function subscribeCoarse(l: () => void) {
  const q = coarseQuery();
  q?.addEventListener('change', l);
  return () => q?.removeEventListener('change', l);
}

export const useCoarsePointer = (): boolean => useSyncExternalStore(subscribeCoarse, () => coarseQuery()?.matches ?? false, () => false);
