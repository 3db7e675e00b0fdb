/**
 * E-mail of a document (the user-app spec §7 `GET .../documents/{id}/email`): the document's files go as
 * attachments through the SMTP server named by the environment (SMTP_HOST, SMTP_PORT default 25,
 * SMTP_USER, SMTP_PASSWORD, SMTP_FROM, SMTP_SECURE). Nothing is kept: the mail is sent during the
 * request, and only a sent mail writes its 'email' history entry. The attachments are streamed from
 * the blob store by path, so a large document is never held in memory.
 *
 * The transport is injectable (BuildOptions.email) so tests send to an in-process SMTP server or
 * check the refusals without one.
 */
import nodemailer from 'nodemailer';
import { ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';
import { EMAIL_NOT_CONFIGURED_KEY, EMAIL_SEND_FAILED_KEY, type DocumentEmailAnswer, type DocumentEmailQuery } from '../../src/api/documents.js';
import type { Queryable } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { ApiError, Errors } from '../http/errors.js';
import { writeAudit } from './audit.js';
import { loadDocument, type Actor } from './documents.js';

export interface MailSettings {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (port 465 style); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
}

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; path: string }[];
}

/** What the service needs of a mail transport: nodemailer's sendMail, or a test's stand-in. */
export interface MailTransport {
  sendMail(mail: OutgoingMail): Promise<{ messageId?: string }>;
}

export interface EmailOptions {
  /** null: e-mail is not set up (every call answers 503). Default: mailSettingsFromEnv(). */
  settings?: MailSettings | null;
  /** Default: a nodemailer SMTP transport built from settings. */
  transport?: MailTransport;
}

/** The settings the environment gives, or null without SMTP_HOST. */
export function mailSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): MailSettings | null {
  const host = env.SMTP_HOST?.trim();
  if (!host) return null;
  const port = Number(env.SMTP_PORT);
  const user = env.SMTP_USER?.trim() || undefined;
  return {
    host,
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 25,
    secure: /^(1|true|yes)$/i.test(env.SMTP_SECURE ?? ''),
    user,
    password: env.SMTP_PASSWORD || undefined,
    // A mail needs a sender; the user name is the usual one when SMTP_FROM is not set.
    from: env.SMTP_FROM?.trim() || user || `archive@${host}`,
  };
}

export function smtpTransport(s: MailSettings): MailTransport {
  return nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    auth: s.user ? { user: s.user, pass: s.password ?? '' } : undefined,
    // A mail server that does not answer must not hold the request for minutes.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
}

export class EmailService {
  private readonly settings: MailSettings | null;
  private transport: MailTransport | undefined;

  constructor(
    private readonly files: FileStore,
    opts: EmailOptions = {},
  ) {
    this.settings = opts.settings === undefined ? mailSettingsFromEnv() : opts.settings;
    this.transport = opts.transport;
  }

  /** Whether e-mail is set up (the app asks before the user writes one). */
  get configured(): boolean {
    return this.settings !== null;
  }

  /**
   * Sends the document to q.To. Refusals, in order: the read-only licence (403), unknown database,
   * archive or document (404), no view or no e-mail right or a wrong SecureId (403), no settings (503).
   */
  async send(db: Queryable, actor: Actor, dbId: number, archiveId: number, docId: number, q: DocumentEmailQuery, now: Date): Promise<DocumentEmailAnswer> {
    if (actor.licenceType === 4) throw Errors.forbidden('This licence is read-only: it may not e-mail documents');
    const { archive } = await loadDocument(db, actor.userId, dbId, archiveId, docId, q.SecureId, ARCHIVE_PERMISSIONS.view);
    if ((archive.rights & ARCHIVE_PERMISSIONS.email) === 0) throw Errors.forbidden('You do not have permission to e-mail documents of this archive');
    const settings = this.settings;
    if (!settings) throw new ApiError(503, 'E-mail is not set up on this server: ask its administrator to set it up', EMAIL_NOT_CONFIGURED_KEY);

    const files = await db.query<{ sha256: string; file_name: string }>('SELECT sha256, file_name FROM document_files WHERE document_id = $1 ORDER BY position, id', [docId]);
    const attachments = files.rows.map((f) => ({ filename: f.file_name, path: this.files.pathOf(f.sha256) }));
    const names = attachments.map((a) => a.filename).join(', ');
    const mail: OutgoingMail = {
      from: settings.from,
      to: q.To,
      subject: q.Subject?.trim() || (names ? `Document ${docId}: ${names}` : `Document ${docId}`),
      text: q.Message ?? '',
      attachments,
    };
    this.transport ??= smtpTransport(settings);
    let messageId: string | undefined;
    try {
      messageId = (await this.transport.sendMail(mail)).messageId;
    } catch (e) {
      // The mail server's own words help the administrator; they hold no secret of ours.
      throw new ApiError(502, `The mail server did not accept the e-mail: ${(e as Error).message}`, EMAIL_SEND_FAILED_KEY);
    }
    await writeAudit(db, {
      databaseId: dbId,
      archiveId,
      documentId: docId,
      category: 'email',
      message: `Document e-mailed to ${q.To}`,
      time: now,
      userName: actor.userName,
      userId: actor.userId,
      event: { Kind: 'emailed', Address: q.To },
    });
    return { Sent: true, MessageId: messageId ?? '' };
  }
}
