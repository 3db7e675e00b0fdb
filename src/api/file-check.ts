/**
 * Refusals of a document file the server cannot read (issue 20): a file whose content is not what its
 * name says (a text file named .pdf), a damaged one (a truncated PDF or TIFF), or one with a page too
 * large to draw within the server's pixel budget (a 16,000 x 16,000 pixel page a few KB on disk).
 * The upload that brings such a file ends failed with one of these keys, and every call that reads a
 * stored file (thumbnails, OCR, rotate, burst, merge, export) answers 422 with one, never a 500.
 */
export const FILE_KEYS = {
  unreadable: 'ERROR_FILE_UNREADABLE',
  pageTooLarge: 'ERROR_PAGE_TOO_LARGE',
} as const;

/** The status of these refusals: the request was understood, the file it names cannot be processed. */
export const FILE_REFUSED_STATUS = 422;
