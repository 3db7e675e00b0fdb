/**
 * The viewer's rotation, annotations and stamps for one document: what is drawn (the server's set with
 * the user's unconfirmed changes over it), what the user is placing (a note or a stamp), and the
 * actions. State: the server's set and rights in TanStack Query (persisted), the user's changes in the
 * outbox (Dexie, read live), the placing mode and the selection here. A rotation needs the server and
 * is refused offline with words; annotation changes are queued (offline too) and never lost.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ARCHIVE_PERMISSIONS } from '../../../api/archives';
import { NOTE_FONT_SIZE, STAMP_COLOR, STAMP_FONT_SIZE, type Annotation, type AnnotationInput } from '../../../api/annotations';
import { errorText } from '../../../api/error-handler';
import type { ViewerDocumentInfo } from '../../../api/viewer';
import { db as database } from '../../../db/db';
import { sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { outboxTarget } from '../../../sync/outbox';
import { ANNOTATION_KIND, annotationChangeOf, enqueueAnnotation } from '../../../sync/kinds/annotation';
import { useOnline } from '../../../ui/offline-indicator';
import { annotationsKey, fetchUserName, rotatePage, useDocumentAnnotations, useStamps, type ViewerDocRef } from '../api/annotations';
import { useKeptAnnotations } from '../pins/pinned-viewer';
import { inputOf, placeAt, textBox, visibleAnnotations, type AnnotationChange } from './annotation-model';
import { measureEm } from './measure';
import { stampText } from './stamp-text';

export type PlacingMode = { kind: 'note' } | { kind: 'stamp'; template: string } | null;
export const READ_ONLY_LICENCE = 4;
const NOTE_COLOR = '#1a237e';

/** Why a control is unavailable (a translation key), or null. */
export type Unavailable = 'DOCUMENTS_READ_ONLY_LICENCE' | 'VIEWER_RIGHTS_UNKNOWN' | 'VIEWER_NO_ANNOTATION_RIGHT' | 'VIEWER_NO_EDIT_RIGHT' | 'VIEWER_ROTATE_OFFLINE' | null;

export function annotateUnavailable(licenceType: number | null | undefined, permissions: number | null): Unavailable {
  if (licenceType === READ_ONLY_LICENCE) return 'DOCUMENTS_READ_ONLY_LICENCE';
  if (permissions === null) return 'VIEWER_RIGHTS_UNKNOWN';
  return (permissions & ARCHIVE_PERMISSIONS.annotations) === 0 ? 'VIEWER_NO_ANNOTATION_RIGHT' : null;
}

export function rotateUnavailable(licenceType: number | null | undefined, permissions: number | null, online: boolean): Unavailable {
  if (licenceType === READ_ONLY_LICENCE) return 'DOCUMENTS_READ_ONLY_LICENCE';
  if (!online) return 'VIEWER_ROTATE_OFFLINE';
  if (permissions === null) return 'VIEWER_RIGHTS_UNKNOWN';
  return (permissions & ARCHIVE_PERMISSIONS.edit) === 0 ? 'VIEWER_NO_EDIT_RIGHT' : null;
}

const PENDING = new Set(['queued', 'sending']);

export function useAnnotations(input: { db: number; doc: ViewerDocumentInfo; page: number; title: string }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const scope = sessionScope(session);
  const online = useOnline();
  const queryClient = useQueryClient();
  const ref: ViewerDocRef = useMemo(() => ({ db: input.db, archiveId: input.doc.Archive, docId: input.doc.Id, hash: input.doc.Hash }), [input.db, input.doc.Archive, input.doc.Id, input.doc.Hash]);
  const q = useDocumentAnnotations(scope, ref);
  const pinRef = useMemo(() => ({ db: ref.db, archiveId: ref.archiveId, docId: ref.docId }), [ref.db, ref.archiveId, ref.docId]);
  const kept = useKeptAnnotations(pinRef, q.data);
  // The server's set, else (offline, never read here) the one kept with the document on this device.
  const data = q.data ?? kept.data;
  const stamps = useStamps(scope);
  const target = outboxTarget(ref.db, ref.archiveId, ref.docId);
  const entries = useLiveQuery(() => database.outbox.where('target').equals(target).toArray(), [target]);

  const [mode, setMode] = useState<PlacingMode>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [rotating, setRotating] = useState(false);
  /** Bumped after a rotation: the page and its images are fetched again. */
  const [fileRev, setFileRev] = useState(0);

  // Changes not yet confirmed, and those confirmed after the server's set was read.
  const fetchedAt = q.data ? q.dataUpdatedAt : kept.at;
  const changes = useMemo(() => {
    const out: AnnotationChange[] = [];
    for (const e of [...(entries ?? [])].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))) {
      if (e.kind !== ANNOTATION_KIND || !(PENDING.has(e.state) || (e.state === 'done' && e.updatedAt > fetchedAt))) continue;
      const c = annotationChangeOf(e);
      if (c) out.push(c);
    }
    return out;
  }, [entries, fetchedAt]);
  // An entry the server has confirmed since: read the set again (it then holds the change).
  const confirmedLater = (entries ?? []).some((e) => e.kind === ANNOTATION_KIND && e.state === 'done' && e.updatedAt > fetchedAt);
  useEffect(() => {
    if (confirmedLater && online) void queryClient.invalidateQueries({ queryKey: annotationsKey(scope, ref) });
  }, [confirmedLater, online, queryClient, scope, ref]);

  const all = useMemo(() => visibleAnnotations(data?.Annotations ?? [], changes, session?.userName ?? null), [data, changes, session?.userName]);
  const permissions = data?.Permissions ?? null;
  const annotateWhy = annotateUnavailable(session?.licenceType, permissions);
  const rotateWhy = rotateUnavailable(session?.licenceType, permissions, online);

  const save = useCallback(
    (change: AnnotationChange, page: number) => {
      void enqueueAnnotation({ dbId: ref.db, archiveId: ref.archiveId, docId: ref.docId, hash: ref.hash }, change, { page, title: input.title }).catch((e: unknown) => setMessage(errorText(e)));
    },
    [ref, input.title],
  );

  /** Places what is being placed at `at` (page fractions); a note needs its text first (the layer asks). */
  const placeStamp = useCallback(
    async (at: { x: number; y: number }, pageNo: number, aspect: number) => {
      if (mode?.kind !== 'stamp') return;
      let userName = session?.userName ?? null;
      if (!userName && mode.template.includes('@User')) userName = await fetchUserName().catch(() => null);
      const r = stampText(mode.template, { now: new Date(), locale: i18n.language || 'en', userName });
      if ('error' in r) {
        setMessage(t(r.error));
        setMode(null);
        return;
      }
      const box = textBox(r.text, STAMP_FONT_SIZE, aspect, measureEm);
      const body: AnnotationInput = { Kind: 'stamp', Page: pageNo, ...placeAt(at, box), Width: box.width, Height: box.height, FontSize: STAMP_FONT_SIZE, Text: r.text, Color: STAMP_COLOR };
      save({ op: 'put', id: crypto.randomUUID(), input: body }, pageNo);
      setMode(null);
      setMessage(null);
    },
    [mode, session?.userName, i18n.language, t, save],
  );

  const addNote = useCallback(
    (at: { x: number; y: number }, pageNo: number, aspect: number, text: string) => {
      const box = textBox(text, NOTE_FONT_SIZE, aspect, measureEm);
      const body: AnnotationInput = { Kind: 'text', Page: pageNo, ...placeAt(at, box), Width: box.width, Height: box.height, FontSize: NOTE_FONT_SIZE, Text: text, Color: NOTE_COLOR };
      save({ op: 'put', id: crypto.randomUUID(), input: body }, pageNo);
      setMode(null);
    },
    [save],
  );

  const move = useCallback((a: Annotation, to: { X: number; Y: number }) => save({ op: 'put', id: a.Id, input: inputOf(a, to) }, a.Page), [save]);
  const remove = useCallback(
    (a: Annotation) => {
      save({ op: 'delete', id: a.Id }, a.Page);
      setSelected(null);
    },
    [save],
  );

  const rotate = useCallback(
    async (angle: 90 | 270) => {
      setRotating(true);
      setMessage(null);
      try {
        await rotatePage({ db: ref.db, archive: ref.archiveId, doc: ref.docId, secureId: ref.hash, angle, page: input.page });
        setFileRev((r) => r + 1);
        // The page's annotations were turned with it on the server; the session's pages Version changed.
        void queryClient.invalidateQueries({ queryKey: annotationsKey(scope, ref) });
        void queryClient.invalidateQueries({ queryKey: ['viewer-session'] });
        setMessage(t('VIEWER_ROTATED', { page: input.page }));
      } catch (e) {
        setMessage(errorText(e));
      } finally {
        setRotating(false);
      }
    },
    [ref, input.page, queryClient, scope, t],
  );

  return {
    annotations: all,
    stamps: stamps.data ?? null,
    stampsFailed: stamps.isError,
    mode,
    setMode,
    selected,
    setSelected,
    message,
    setMessage,
    annotateWhy,
    rotateWhy,
    rotating,
    rotate,
    placeStamp,
    addNote,
    move,
    remove,
    fileRev,
  };
}

export type AnnotationsState = ReturnType<typeof useAnnotations>;
