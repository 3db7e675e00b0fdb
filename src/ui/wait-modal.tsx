import { useTranslation } from 'react-i18next';
import { Modal } from './modal';

/**
 * The wait modal with a spinner (the user-app spec §2): blocks the page during short work the user cannot
 * go on without (signing in, obtaining a licence). Never for jobs: a copy, move, delete, export or
 * any other server job is queued in the outbox and watched in the notifications tray, so the user
 * keeps working and may leave (issue 9: "every bulk action is a job they can leave"). Where the spec
 * says the wait modal closes when a group job is done, the tray's job card takes its place.
 * tests/notifications/wait-modal-use.test.ts keeps the list of its users.
 */
export function WaitModal({ open, message }: { open: boolean; message?: string }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={message ?? t('MESSAGE_LOADING')} className="wait-modal">
      <div className="wait-modal-body" role="status" aria-live="polite">
        <span className="spinner spinner-large" aria-hidden="true" />
      </div>
    </Modal>
  );
}
