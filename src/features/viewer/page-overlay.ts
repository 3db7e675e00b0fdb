/**
 * What is drawn over a page (annotations and stamps, key-free words): each layer is a child of the
 * page's box (PdfPage, ImagePage), absolutely placed over it (.viewer-page-overlay), and gets the
 * page's number and its drawn size in CSS pixels. Positions kept in page fractions (0..1 of the
 * page's width and height) draw right at every zoom.
 */
import type { ReactNode } from 'react';

export interface PageOverlayProps {
  pageNo: number;
  /** The page as drawn, in CSS pixels. */
  width: number;
  height: number;
}

/** A layer over the page: the viewer calls each with the page being shown. */
export type PageOverlay = (p: PageOverlayProps) => ReactNode;
