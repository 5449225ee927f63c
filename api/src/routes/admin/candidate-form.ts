/**
 * Reading a candidate's multipart form, shared by create (catalog.ts) and edit (edits.ts):
 * the body must be multipart, a photo is judged by its bytes (services/election/images.ts), at most one.
 */
import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { MAX_PHOTO_BYTES, messages } from "@evoting/shared";
import { fail } from "../../http/errors.ts";
import { cleanImage } from "../../services/election/images.ts";

/** Multipart overhead on top of the photo itself. */
export const CANDIDATE_BODY_LIMIT = MAX_PHOTO_BYTES + 64 * 1024;
export const candidateBodyLimit = () =>
  bodyLimit({ maxSize: CANDIDATE_BODY_LIMIT, onError: () => fail(413, messages.photoTooLarge) });

export type CandidateForm = Record<string, string | File | (string | File)[]>;

export async function readCandidateForm(c: Context): Promise<CandidateForm> {
  const type = c.req.header("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) fail(415, `${messages.unsupportedMediaType}: send multipart/form-data`);
  try {
    return await c.req.parseBody({ all: true });
  } catch {
    fail(400, "Request body must be valid multipart form data");
  }
}

/** A text field, or undefined when absent (or a file where text belongs). */
export const textField = (form: CandidateForm, name: string): string | undefined => {
  const v = form[name];
  return typeof v === "string" ? v : undefined;
};

export interface PhotoRow {
  id: string;
  mime: string;
  data: Buffer;
}

/** The uploaded photo, checked; null when none was sent (an empty file field is none). */
export async function photoFromForm(form: CandidateForm, limits: { maxPixels?: number } = {}): Promise<PhotoRow | null> {
  const photo = form.photo;
  if (Array.isArray(photo)) fail(400, "Send at most one candidate photo");
  if (photo instanceof File && photo.size > 0) {
    if (photo.size > MAX_PHOTO_BYTES) fail(413, messages.photoTooLarge);
    // Decoded and re-encoded: only the pixels are stored (services/election/images.ts).
    const image = await cleanImage(new Uint8Array(await photo.arrayBuffer()), limits);
    if (!image) fail(400, messages.photoInvalid);
    return { id: randomUUID(), mime: image.mime, data: image.data };
  }
  if (typeof photo === "string" && photo !== "") fail(400, messages.photoInvalid);
  return null;
}
