/**
 * E-mail of a document (the user-app spec §7): the server sends through a real SMTP conversation to an
 * in-process SMTP server (smtp-server), and the test reads the received mail: its recipient, subject
 * and attachment bytes, which must be the document's file as the blob store holds it.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentHistory } from '../../src/api/audit';
import { DocumentEmailAnswer, EMAIL_NOT_CONFIGURED_KEY, EMAIL_SEND_FAILED_KEY, EmailSettingsAnswer, documentPaths } from '../../src/api/documents';
import { ErrorBody } from '../../src/api/errors';
import { SEED_IDS } from '../../server/seed/catalog';
import { mailSettingsFromEnv } from '../../server/services/email';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
interface Received {
  from: string;
  to: string[];
  auth: string | undefined;
  raw: string;
}
interface Doc {
  id: number;
  archive_id: number;
  secure_hash: string;
}

const received: Received[] = [];
let smtp: SMTPServer;
let smtpPort: number;
let s: TestServer;
const tokens: Record<string, string> = {};
let invoice: Doc;
let contract: Doc;

beforeAll(async () => {
  smtp = new SMTPServer({
    // Plain SMTP on a loopback port: no certificate to trust, and AUTH allowed without TLS.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'mailer' && auth.password === 'secret') cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, cb) {
      if (address.address === 'refused@example.com') cb(new Error('Mailbox unavailable'));
      else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          auth: session.user as string | undefined,
          raw: Buffer.concat(chunks).toString('latin1'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  s = await startServer({
    // 60 documents: the seed's first 20 hold none of Contracts.
    seed: { docs: 60 },
    email: { settings: { host: '127.0.0.1', port: smtpPort, secure: false, user: 'mailer', password: 'secret', from: 'archive@example.com' } },
  });
  for (const u of ['admin', 'user', 'viewer']) tokens[u] = await signIn(s, u);
  const docs = (await s.store.query<Doc>('SELECT id, archive_id, secure_hash FROM documents WHERE NOT deleted ORDER BY id')).rows.map((d) => ({ ...d, id: Number(d.id) }));
  invoice = docs.find((d) => d.archive_id === A.invoices) as Doc;
  contract = docs.find((d) => d.archive_id === A.contracts) as Doc;
  expect(invoice).toBeDefined();
  expect(contract).toBeDefined();
});
afterAll(async () => {
  await s?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

function emailUrl(d: Doc, q: Record<string, string>, token: string) {
  const p = new URLSearchParams({ SecureId: d.secure_hash, ...q, token });
  return `${documentPaths.email(1, d.archive_id, d.id)}?${p}`;
}
const send = (server: TestServer, d: Doc, q: Record<string, string>, user = 'user', token = tokens[user] as string) =>
  server.app.inject({ method: 'GET', url: emailUrl(d, q, token) });

/** The MIME parts of a multipart mail: each part's headers (lower-case names) and body. */
function mimeParts(raw: string): { headers: Record<string, string>; body: string }[] {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)?.[1];
  if (!boundary) throw new Error('not a multipart mail');
  const body = rest.join('\r\n\r\n');
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => {
      const at = p.indexOf('\r\n\r\n');
      const headers: Record<string, string> = {};
      for (const line of p.slice(0, at).replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      return { headers, body: p.slice(at + 4).replace(/\r\n$/, '') };
    });
}
const headerOf = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(raw.split('\r\n\r\n')[0] ?? '')?.[1];

describe('GET .../documents/{id}/email', () => {
  it('sends the document to the address, its file attached byte for byte, and writes an email history entry', async () => {
    received.length = 0;
    const r = await send(s, invoice, { To: 'finance@example.com', Subject: 'Invoice for you', Message: 'Please pay.' });
    expect(r.statusCode, r.body).toBe(200);
    const answer = DocumentEmailAnswer.parse(r.json());
    expect(answer.Sent).toBe(true);
    expect(received).toHaveLength(1);
    const mail = received[0] as Received;
    expect(mail.to).toEqual(['finance@example.com']);
    expect(mail.from).toBe('archive@example.com');
    expect(mail.auth).toBe('mailer');
    expect(headerOf(mail.raw, 'Subject')).toBe('Invoice for you');
    expect(headerOf(mail.raw, 'To')).toBe('finance@example.com');
    expect(answer.MessageId).toBe(headerOf(mail.raw, 'Message-ID'));

    const files = (await s.store.query<{ sha256: string; file_name: string }>('SELECT sha256, file_name FROM document_files WHERE document_id = $1 ORDER BY position, id', [invoice.id])).rows;
    expect(files.length).toBeGreaterThan(0);
    const parts = mimeParts(mail.raw);
    const attachments = parts.filter((p) => /^attachment/i.test(p.headers['content-disposition'] ?? ''));
    expect(attachments).toHaveLength(files.length);
    for (const [i, f] of files.entries()) {
      const part = attachments[i] as (typeof attachments)[number];
      expect(part.headers['content-disposition']).toContain(f.file_name);
      expect(part.headers['content-transfer-encoding']).toBe('base64');
      const bytes = Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
      expect(bytes.equals(await s.files.get(f.sha256))).toBe(true);
    }
    const text = parts.find((p) => (p.headers['content-type'] ?? '').startsWith('text/plain'));
    expect(text?.body).toBe('Please pay.');

    const h = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${invoice.archive_id}/documents/${invoice.id}/audit?SecureId=${invoice.secure_hash}&token=${tokens.user}` });
    const entry = DocumentHistory.parse(h.json()).find((e) => e.Category === 'email');
    expect(entry?.Event).toMatchObject({ Kind: 'emailed', Address: 'finance@example.com' });
    expect(entry?.UserName).toBe('user');
  });

  it('says e-mail is set up to any signed-in user', async () => {
    const r = await s.app.inject({ method: 'GET', url: documentPaths.emailSettings, headers: { 'Auth-Token': tokens.viewer ?? tokens.user! } });
    expect(EmailSettingsAnswer.parse(r.json())).toEqual({ Configured: true });
  });

  it('names the document in the subject when none is given', async () => {
    received.length = 0;
    const r = await send(s, invoice, { To: 'someone@example.org' });
    expect(r.statusCode, r.body).toBe(200);
    expect(headerOf((received[0] as Received).raw, 'Subject')).toMatch(new RegExp(`^Document ${invoice.id}: `));
  });

  it('refuses an address that is not one plain address, and a subject with a line break', async () => {
    received.length = 0;
    for (const To of ['not-an-address', 'a@example.com,b@example.com', 'Someone <a@example.com>', '']) {
      const r = await send(s, invoice, { To });
      expect(r.statusCode, To).toBe(400);
      expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_INCORRECT_PARAMETERS');
    }
    const r = await send(s, invoice, { To: 'a@example.com', Subject: 'Hi\r\nBcc: x@example.com' });
    expect(r.statusCode).toBe(400);
    expect(received).toHaveLength(0);
  });

  it('refuses the read-only licence, a user without the e-mail right (32) and a wrong SecureId with 403', async () => {
    received.length = 0;
    // The viewer may view Invoices and even holds bit 32 there: the licence type 4 is what refuses it.
    const viewer = await send(s, invoice, { To: 'a@example.com' }, 'viewer');
    expect(viewer.statusCode).toBe(403);
    expect(ErrorBody.parse(viewer.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');

    await s.store.query('UPDATE archive_permissions SET rights = rights & ~32 WHERE archive_id = $1 AND user_id = $2', [A.contracts, SEED_IDS.user.user]);
    const noBit = await send(s, contract, { To: 'a@example.com' }, 'user');
    expect(noBit.statusCode).toBe(403);
    expect(ErrorBody.parse(noBit.json())).toMatchObject({ Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS', Message: expect.stringMatching(/e-mail/) });
    // The same document is sent for a user who holds the bit (admin, through the administrators group).
    expect((await send(s, contract, { To: 'a@example.com' }, 'admin')).statusCode).toBe(200);

    const wrongHash = await send(s, { ...invoice, secure_hash: 'nope' }, { To: 'a@example.com' });
    expect(wrongHash.statusCode).toBe(403);
    expect(received.map((m) => m.to)).toEqual([['a@example.com']]);
  });

  it('answers 502 with the mail server words when it refuses the recipient, and writes no history', async () => {
    const r = await send(s, invoice, { To: 'refused@example.com' });
    expect(r.statusCode).toBe(502);
    const body = ErrorBody.parse(r.json());
    expect(body.Key).toBe(EMAIL_SEND_FAILED_KEY);
    expect(body.Message).toMatch(/Mailbox unavailable/);
    const n = await s.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_entries WHERE category = 'email' AND details->'Event'->>'Address' = 'refused@example.com'`);
    expect(n.rows[0]?.n).toBe(0);
  });
});

describe('a server without e-mail settings', () => {
  it('says so before a mail is written, and answers 503 ERROR_EMAIL_NOT_CONFIGURED without naming settings', async () => {
    const bare = await startServer({ email: { settings: null }, seed: { docs: 5 } });
    try {
      const token = await signIn(bare, 'user');
      const settings = await bare.app.inject({ method: 'GET', url: documentPaths.emailSettings, headers: { 'Auth-Token': token } });
      expect(settings.statusCode).toBe(200);
      expect(EmailSettingsAnswer.parse(settings.json())).toEqual({ Configured: false });
      expect((await bare.app.inject({ method: 'GET', url: documentPaths.emailSettings })).statusCode).toBe(401);
      const d = (await bare.store.query<Doc>('SELECT id, archive_id, secure_hash FROM documents WHERE archive_id = $1 LIMIT 1', [A.invoices])).rows[0] as Doc;
      const r = await send(bare, { ...d, id: Number(d.id) }, { To: 'a@example.com' }, 'user', token);
      expect(r.statusCode).toBe(503);
      const body = ErrorBody.parse(r.json());
      expect(body.Key).toBe(EMAIL_NOT_CONFIGURED_KEY);
      expect(body.Message).toBe('E-mail is not set up on this server: ask its administrator to set it up');
      expect(body.Message).not.toMatch(/SMTP/);
    } finally {
      await bare.close();
    }
  });

  it('reads the settings from SMTP_* with port 25 by default, and none without SMTP_HOST', () => {
    expect(mailSettingsFromEnv({})).toBeNull();
    expect(mailSettingsFromEnv({ SMTP_HOST: 'mail.example.com', SMTP_FROM: 'archive@example.com' })).toEqual({
      host: 'mail.example.com',
      port: 25,
      secure: false,
      user: undefined,
      password: undefined,
      from: 'archive@example.com',
    });
    expect(mailSettingsFromEnv({ SMTP_HOST: 'mail.example.com', SMTP_PORT: '465', SMTP_SECURE: 'true', SMTP_USER: 'u@example.com', SMTP_PASSWORD: 'p' })).toMatchObject({
      port: 465,
      secure: true,
      user: 'u@example.com',
      password: 'p',
      from: 'u@example.com',
    });
  });
});
