import { Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { useAdminDatabases } from '../api/databases';
import type { AddAction } from '../mode-props';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ConsoleNav } from './console-nav';
import { DEFAULT_MODE, MODE_COMPONENTS, MODE_LABELS, NEEDS_DB, isConsoleMode, type ConsoleMode } from './modes';
import { pickDb, readRememberedDb, rememberDb } from './selected-db';
import { useAdminChangeSync } from './use-admin-change-sync';
import '../ui/admin-console.css';

const NAV_KEY = 'adminConsole.navCollapsed';

/**
 * The administration console at /admin/full (the console spec §2): mode and db in the address (a
 * change of either re-renders, never reloads; the token is taken by the app's TokenCapture), a
 * collapsible navigation bar, the database choice, the mode, and the mode's floating add button.
 * A mode with unsaved changes (onDirtyChange) makes leaving it ask CONFIRM_GENERIC_UNSAVED_CHANGES.
 */
export function AdminConsole({ isAdminAll = false, appDb = null }: { isAdminAll?: boolean; /** The database the user works in in the app, when the console has none remembered. */ appDb?: number | null }) {
  const { t } = useTranslation();
  const session = useSession();
  const scope = sessionScope(session);
  const [params, setParams] = useSearchParams();
  const modeParam = params.get('mode');
  const mode: ConsoleMode = isConsoleMode(modeParam) ? modeParam : DEFAULT_MODE;
  const dbParam = Number(params.get('db'));
  const databases = useAdminDatabases(scope);
  const ids = (databases.data ?? []).map((d) => d.id);
  const dbId = databases.data ? pickDb(ids, dbParam > 0 ? dbParam : null, readRememberedDb(scope), appDb) : null;
  useAdminChangeSync();
  const dbSelectId = useId();

  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(NAV_KEY) === '1');
  const [add, setAdd] = useState<AddAction | null>(null);
  const dirty = useRef(false);
  const [pending, setPending] = useState<(() => void) | null>(null);

  const go = useCallback(
    (next: { mode?: ConsoleMode; db?: number | null }) => {
      const apply = () => {
        dirty.current = false;
        setParams(
          (p) => {
            const q = new URLSearchParams(p);
            if (next.mode) q.set('mode', next.mode);
            if (next.db !== undefined) {
              if (next.db === null) q.delete('db');
              else q.set('db', String(next.db));
            }
            return q;
          },
          { replace: next.mode === undefined },
        );
      };
      if (dirty.current) setPending(() => apply);
      else apply();
    },
    [setParams, setPending],
  );

  // The address names the shown database, and the choice is remembered.
  useEffect(() => {
    if (!databases.data) return;
    if (dbId !== null) rememberDb(scope, dbId);
    if ((dbParam > 0 ? dbParam : null) !== dbId) {
      setParams(
        (p) => {
          const q = new URLSearchParams(p);
          if (dbId === null) q.delete('db');
          else q.set('db', String(dbId));
          return q;
        },
        { replace: true },
      );
    }
  }, [databases.data, dbId, dbParam, scope, setParams]);

  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (dirty.current) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  const onDirtyChange = useCallback((d: boolean) => {
    dirty.current = d;
  }, []);
  const registerAdd = useCallback((a: AddAction | null) => setAdd(a), []);
  const onSelectDb = useCallback((id: number | null) => go({ db: id }), [go]);

  const Mode = MODE_COMPONENTS[mode];
  const needsDb = NEEDS_DB.has(mode);

  return (
    <div className={`admin-console${collapsed ? ' admin-console-collapsed' : ''}`} data-testid="admin-console">
      <ConsoleNav
        mode={mode}
        collapsed={collapsed}
        onToggle={() => {
          setCollapsed((c) => {
            localStorage.setItem(NAV_KEY, c ? '0' : '1');
            return !c;
          });
        }}
        onSelect={(m) => m !== mode && go({ mode: m })}
      />
      <div className="admin-main">
        <div className="admin-toolbar">
          <h1 className="admin-title">{t(MODE_LABELS[mode])}</h1>
          <div className="admin-db-select">
            <label htmlFor={dbSelectId}>{t('ADMIN_DATABASE')}</label>
            <select
              id={dbSelectId}
              value={dbId ?? ''}
              disabled={!databases.data || databases.data.length === 0}
              onChange={(e) => go({ db: e.target.value ? Number(e.target.value) : null })}
            >
              <option value="">{t('ADMIN_NO_DATABASE')}</option>
              {(databases.data ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        {databases.isError && (
          <p className="callout callout-error" role="alert">
            {t('ADMIN_NOT_ALLOWED')}
          </p>
        )}
        {!Mode ? (
          <p className="hint">{t('NOT_YET_AVAILABLE')}</p>
        ) : needsDb && dbId === null ? (
          <p className="hint">{databases.data ? t('ADMIN_CHOOSE_DATABASE') : t('ADMIN_MODE_LOADING')}</p>
        ) : databases.data ? (
          <Suspense fallback={<p className="hint">{t('ADMIN_MODE_LOADING')}</p>}>
            <Mode key={`${mode}:${dbId ?? 0}`} dbId={dbId} onDirtyChange={onDirtyChange} registerAdd={registerAdd} onSelectDb={onSelectDb} isAdminAll={isAdminAll} />
          </Suspense>
        ) : null}
      </div>
      {add && (
        <button type="button" className="admin-fab" data-testid="admin-add" disabled={add.disabled} onClick={add.onAdd}>
          <span aria-hidden="true">+</span> {add.label}
        </button>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={t('ADMIN_UNSAVED_TITLE')}
        message={t('CONFIRM_GENERIC_UNSAVED_CHANGES')}
        confirmLabel={t('ADMIN_DISCARD')}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          const apply = pending;
          setPending(null);
          apply?.();
        }}
      />
    </div>
  );
}
