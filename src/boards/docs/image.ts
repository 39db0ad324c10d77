import { Node } from '@tiptap/core';
import type { Attachment } from '../../../schema/attributes';
import { DOC_NODE, isDocImageSrc } from '../../../schema/doc-nodes';
import { request } from '../../api/client';

/**
 * Images in documents (decision 0216): a block holding a file uploaded as an attachment of the
 * document's item (the attachments upload: EDIT_ITEM on the item, the size limit, the
 * workspace's storage limit). Only such a file's address is kept: an image pasted from another
 * site, a `data:` URL or any other address is dropped when pasted and not drawn when synced.
 */
export const DocImage = Node.create({
  name: DOC_NODE.image,
  group: 'block',
  atom: true,
  draggable: true,
  addAttributes: () => ({
    src: { default: null, parseHTML: (element: HTMLElement) => (isDocImageSrc(element.getAttribute('src')) ? element.getAttribute('src') : null) },
    alt: { default: '', parseHTML: (element: HTMLElement) => (element.getAttribute('alt') ?? '').slice(0, 300) },
  }),
  parseHTML: () => [{ tag: 'img[src]', getAttrs: (element: HTMLElement) => (isDocImageSrc(element.getAttribute('src')) ? null : false) }],
  renderHTML: ({ node }) =>
    isDocImageSrc(node.attrs.src)
      ? ['img', { src: node.attrs.src, alt: String(node.attrs.alt ?? ''), class: 'doc-image', loading: 'lazy', 'data-testid': 'doc-image' }]
      : ['span', { class: 'doc-image doc-image-refused' }],
});

/** Image types the upload recognises (server/files/storage.ts sniffs the bytes too). */
export const DOC_IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

/** Uploads one image as an attachment of the item; the entry's URL is the image's source. */
export async function uploadDocImage(teamId: number, itemId: string, file: File): Promise<Attachment> {
  const form = new FormData();
  form.append('file', file);
  const answer = await request<{ data: Attachment }>('POST', `/api/${teamId}/attachments?item_id=${encodeURIComponent(itemId)}`, form);
  return answer.data;
}
