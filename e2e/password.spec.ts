/**
 * Settings > Password (issue 8 item 16): the own password changed through the screen, with the
 * spec's checks (the user-app spec §5) and messages (§8); the server asks for the current password and
 * ends the user's other sessions while this one stays signed in. The test changes the `viewer`
 * account's password (the only demo account whose own password meets the 6-18 rule, so it can be
 * put back) and puts it back afterwards; no other browser test signs in while it runs (one worker).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expectTapTarget, texts } from './editing-support';
import { expect, test } from './grid-support';
import { basic, obtainLicence, signIn } from './support';

const t = texts('en');
const NEW_PASSWORD = 'viewer-pw-2';

function form(page: Page) {
  const section = page.getByRole('group', { name: t('SETTINGS_PASSWORD'), exact: true });
  return {
    section,
    current: section.getByLabel(t('PASSWORD_CURRENT'), { exact: true }),
    next: section.getByLabel(t('PASSWORD_NEW'), { exact: true }),
    confirm: section.getByLabel(t('PASSWORD_CONFIRM'), { exact: true }),
    submit: page.getByRole('button', { name: t('PASSWORD_CHANGE'), exact: true }),
    alert: section.getByRole('alert'),
  };
}

async function licenceToken(request: APIRequestContext, user: string, password: string): Promise<string> {
  const res = await obtainLicence(request, user, password);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { Token: string }).Token;
}

const dbsStatus = async (request: APIRequestContext, token: string) => (await request.get('/api/dbs', { params: { token } })).status();

test.describe('Settings: own password', () => {
  test('change it with the current password: checks first, a wrong current password refused, then changed; other sessions end, this one stays', async ({ page, request }) => {
    let changed = false;
    try {
      // Another device of the same user.
      const phone = await licenceToken(request, 'viewer', 'viewer');
      const mine = await signIn(page, 'viewer');
      await expect(page).toHaveURL(/\/view\?db=1\b/);
      await page.getByRole('button', { name: 'Settings' }).click();
      await expect(page).toHaveURL(/\/settings$/);
      const f = form(page);

      // The fields do not keep their values once the user leaves the page.
      await f.current.fill('typed before leaving');
      await page.goBack();
      await expect(page).toHaveURL(/\/view\?db=1\b/);
      await page.goForward();
      await expect(f.current).toHaveValue('');

      // The spec's checks, before anything is sent.
      await f.submit.click();
      await expect(f.alert).toHaveText(t('CURRENT_PASSWORD_BLANK'));
      await expect(f.current).toHaveAttribute('aria-invalid', 'true');
      await f.current.fill('viewer');
      await f.submit.click();
      await expect(f.alert).toHaveText(t('PASSWORD_BLANK'));
      await expect(f.next).toHaveAttribute('aria-invalid', 'true');
      await f.next.fill(NEW_PASSWORD);
      await f.confirm.fill(`${NEW_PASSWORD}x`);
      await f.submit.click();
      await expect(f.alert).toHaveText(t('PASSWORDS_DONT_MATCH'));
      await expect(f.confirm).toHaveAttribute('aria-invalid', 'true');
      await expect(f.confirm).toHaveAccessibleDescription(t('PASSWORDS_DONT_MATCH'));

      // Too short for the rule: the server refuses it.
      await f.next.fill('abc');
      await f.confirm.fill('abc');
      await f.submit.click();
      await expect(f.alert).toHaveText(t('ERROR_PASSWORD_UPDATE'));

      // A wrong current password is refused; nothing changes, the other session stays.
      await f.current.fill('not-my-password');
      await f.next.fill(NEW_PASSWORD);
      await f.confirm.fill(NEW_PASSWORD);
      await f.submit.click();
      await expect(f.alert).toHaveText(t('CURRENT_PASSWORD_WRONG'));
      await expect(f.current).toHaveAttribute('aria-invalid', 'true');
      expect(await dbsStatus(request, phone)).toBe(200);

      await f.current.fill('viewer');
      await f.submit.click();
      await expect(f.section.getByRole('status')).toHaveText(`${t('PASSWORD_UPDATED')} ${t('PASSWORD_OTHER_SESSIONS_ENDED')}`);
      changed = true;
      await expect(f.alert).toHaveCount(0);
      for (const input of [f.current, f.next, f.confirm]) await expect(input).toHaveValue('');

      // The other device is signed out; this one is not.
      expect(await dbsStatus(request, phone)).toBe(401);
      expect(await dbsStatus(request, mine)).toBe(200);
      await page.goto('/view?db=1');
      await expect(page.getByTestId('search-list')).toBeVisible();
      await expect(page).toHaveURL(/\/view\?db=1\b/);

      // The old password no longer signs in; the new one does.
      expect((await request.get('/api/licenses', { headers: { Authorization: basic('viewer', 'viewer') } })).status()).toBe(401);
      await licenceToken(request, 'viewer', NEW_PASSWORD);
    } finally {
      // Put the demo password back for the other tests.
      const res = await obtainLicence(request, 'viewer', NEW_PASSWORD);
      if (res.status() === 200) {
        const token = ((await res.json()) as { Token: string }).Token;
        const back = await request.post('/api/users', { params: { isSelfPasswordChange: 'true', token }, data: { CurrentPassword: NEW_PASSWORD, Password: 'viewer' } });
        expect(back.status(), await back.text()).toBe(200);
      } else {
        expect(changed, 'the password was changed but the new one does not sign in').toBe(false);
      }
    }
  });

  test('on a touch tablet: named fields and a button of at least 44 px; the checks speak @touch', async ({ page }) => {
    await signIn(page, 'user');
    await page.goto('/settings');
    const f = form(page);
    for (const [what, control] of [
      ['current password', f.current],
      ['new password', f.next],
      ['confirmation', f.confirm],
      ['Change password', f.submit],
    ] as const) {
      await expectTapTarget(control, what);
    }
    await f.current.tap();
    await f.current.fill('user');
    await f.next.tap();
    await f.next.fill('new-password-1');
    await f.confirm.tap();
    await f.confirm.fill('new-password-2');
    await f.submit.tap();
    await expect(f.alert).toHaveText(t('PASSWORDS_DONT_MATCH'));
    await expect(f.alert).toBeInViewport();
  });
});
