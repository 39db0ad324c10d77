import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';
import { PHOTO_MAX_BYTES } from '../../schema/constants';
import { sniffImage, type ImageExt } from './storage';

const tooLarge = () => new ApiError(413, Messages.fileTooLarge(PHOTO_MAX_BYTES / (1024 * 1024)), 'too_large');

/**
 * Reads one image from a multipart request's `field` (profile and workspace photos), enforcing
 * PHOTO_MAX_BYTES and an image type. Every refusal is a clear error in the one error shape.
 */
export async function readImageUpload(request: FastifyRequest, field = 'photo'): Promise<{ data: Buffer; ext: ImageExt }> {
  if (!request.isMultipart()) {
    throw new ApiError(415, `Send the image as multipart/form-data in the field "${field}".`, 'bad_request');
  }
  let data: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== field || data) {
        // Drain parts we do not want so the request completes.
        await part.toBuffer();
        continue;
      }
      data = await part.toBuffer();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw new ApiError(422, `Send one image in the field "${field}".`, 'validation', [`${field}: send one image only`]);
    // Anything else the multipart reader throws (a truncated body: "Unexpected end of multipart
    // data", a broken part header) is the client's malformed upload too, not a server fault.
    throw new ApiError(400, 'The upload could not be read.', 'bad_request');
  }
  if (!data || data.length === 0) throw new ApiError(422, `Validation Error: ${field}: is required`, 'validation', [`${field}: is required`]);
  if (data.length > PHOTO_MAX_BYTES) throw tooLarge();
  const ext = sniffImage(data);
  if (!ext) {
    const message = `${field}: must be a PNG, JPEG, GIF or WebP image`;
    throw new ApiError(422, Messages.validationPrefix + message, 'validation', [message]);
  }
  return { data, ext };
}
