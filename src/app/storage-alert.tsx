import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isStorageAvailable } from '../pwa/storage';

/** COOKIE_DISABLED (the user-app spec §8): the app cannot keep a session or work offline without storage. */
export function StorageAlert() {
  const { t } = useTranslation();
  const [available, setAvailable] = useState(true);
  useEffect(() => {
    let live = true;
    void isStorageAvailable().then((ok: boolean) => {
      if (live) setAvailable(ok);
    });
    return () => {
      live = false;
    };
  }, []);
  if (available) return null;
  return (
    <div className="banner banner-error" role="alert" data-testid="cookie-disabled">
      {t('COOKIE_DISABLED')}
    </div>
  );
}
