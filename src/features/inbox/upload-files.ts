/**
 * Hands files to the resumable uploads with the inbox as their target. The uploads themselves
 * (Dexie `uploads`, the worker, the tray) are src/sync's; until they are in this build an upload
 * is refused, so the screen says it failed instead of losing the files silently.
 */
export async function startInboxUpload(files: readonly File[], inboxId: number): Promise<string[]> {
  void files;
  void inboxId;
  throw new Error('uploads are not available in this build');
}
