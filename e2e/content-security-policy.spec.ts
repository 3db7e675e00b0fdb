/**
 * The app works under the server's Content-Security-Policy (issue 8 item 17): signing in, choosing
 * the database, searching, opening the results grid and editing a cell raise no CSP violation
 * (no `securitypolicyviolation` event in the page, no CSP refusal on the console). A probe at
 * the end proves the policy is enforced and the watch sees what it refuses: an inline script.
 */
import type { Page } from '@playwright/test';
import { editCell, prepareInvoice, apiToken } from './editing-support';
import { A, F, S, apiDocs, expect, gridRow, openDemo, runSearch, test, val } from './grid-support';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** Every CSP violation the page reports, as "directive blocked-uri", from the first script on. */
async function watchViolations(page: Page): Promise<string[]> {
  const consoleLines: string[] = [];
  page.on('console', (m) => {
    if (/Refused to|Content Security Policy/i.test(m.text())) consoleLines.push(m.text());
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations!.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  return consoleLines;
}

const violations = (page: Page) => page.evaluate(() => window.__cspViolations ?? []);

test('sign in, search, the grid and an edit run under the CSP without a violation', async ({ page, request, pageErrors }) => {
  const consoleLines = await watchViolations(page);
  const setupToken = await apiToken(request, 'user');
  // Invoice slot 13: no other browser test edits it (editing-support.ts prepareInvoice).
  const inv = await prepareInvoice(request, setupToken, 13, 'csp');
  try {
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/login');
    await page.goto('/login');
    const csp = (await (await answer).allHeaders())['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");

    const token = await openDemo(page, 'user');
    await page.getByLabel('Title', { exact: true }).fill(inv.mark);
    const criteria = await runSearch(page);
    await expect(page.getByTestId('results-count')).toHaveText('1 document');
    await expect(gridRow(page, 0)).toContainText(inv.mark);

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edited = `${inv.mark} edited`;
    await editCell(page, 0, 'Title', edited);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await apiDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria })).Docs.map((d) => val(d, F.title)), {
        timeout: 30_000,
      })
      .toEqual([edited]);
    await expect(gridRow(page, 0)).toContainText(edited);

    expect(await violations(page), 'CSP violations in the page').toEqual([]);
    expect(consoleLines, 'CSP refusals on the console').toEqual([]);

    // The probe: an inline script is refused, and the watch sees it.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true;';
      document.body.appendChild(s);
    });
    await expect.poll(() => violations(page)).toEqual([expect.stringMatching(/^script-src-elem inline$/)]);
    expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan ?? false)).toBe(false);
    // The suite's fixture (grid-support.ts) saw the refusal too; it is this probe's, not a failure.
    await expect.poll(() => pageErrors.filter((e) => e.startsWith('CSP:')).length).toBe(1);
    pageErrors.splice(pageErrors.findIndex((e) => e.startsWith('CSP:')), 1);
  } finally {
    await inv.restore();
  }
});
