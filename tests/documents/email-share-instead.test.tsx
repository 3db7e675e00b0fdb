// @vitest-environment happy-dom
// "Share instead" in the e-mail form hands the document to the share sheet and closes the form. The
// browser tests' servers have no mail set up (so there E-mail is unavailable before the form opens);
// the form itself is checked here.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmailModal, type EmailDoc } from '../../src/features/documents/components/email-modal';
import { i18n } from '../../src/i18n/i18n';

afterEach(() => cleanup());

const doc: EmailDoc = { id: 4, hash: 'h4', archiveId: 3, title: 'Letter 4 Initech' };

describe('the e-mail form', () => {
  it('offers Share instead where the device can share, handing the document over and closing', () => {
    const onShare = vi.fn();
    const onClose = vi.fn();
    render(
      <I18nextProvider i18n={i18n}>
        <EmailModal dbId={1} doc={doc} onClose={onClose} onShare={onShare} />
      </I18nextProvider>,
    );
    expect(screen.getByRole('dialog', { name: 'E-mail Letter 4 Initech' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Share instead' }));
    expect(onShare).toHaveBeenCalledWith(doc);
    expect(onClose).toHaveBeenCalled();
  });

  it('has no Share instead where the device cannot share', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <EmailModal dbId={1} doc={doc} onClose={() => undefined} />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('button', { name: 'Share instead' })).toBeNull();
  });
});
