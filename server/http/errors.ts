import type { FastifyInstance, FastifyError } from 'fastify';
import { ZodError } from 'zod';
import { Messages } from '../../schema/messages';
import type { ApiErrorBody } from '../../schema/api-error';

/** Throw this from any route: it becomes `{message, type?, data?}` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type?: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
  body(): ApiErrorBody {
    const body: ApiErrorBody = { message: this.message };
    if (this.type) body.type = this.type;
    if (this.data !== undefined) body.data = this.data;
    return body;
  }
}

export const unauthorized = () => new ApiError(403, Messages.unauthorized, 'unauthorized');
export const unauthenticated = () => new ApiError(401, Messages.unauthorized, 'unauthenticated');
export const notFound = () => new ApiError(404, Messages.notFound, 'not_found');
export const validation = (messages: string[]) =>
  new ApiError(422, Messages.validationPrefix + messages.join(', '), 'validation', messages);

/** Parses a body with a zod schema; failures become a 422 listing every problem. */
export function parseBody<T>(schema: { parse(v: unknown): T }, value: unknown): T {
  try {
    return schema.parse(value ?? {});
  } catch (error) {
    if (error instanceof ZodError) {
      throw validation(error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ` : '') + issue.message));
    }
    throw error;
  }
}

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | ApiError | Error, request, reply) => {
    if (error instanceof ApiError) return reply.status(error.status).send(error.body());
    const fe = error as FastifyError;
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (fe.statusCode === 400 && fe.code?.startsWith('FST_ERR_CTP'))) {
      return reply.status(400).send({ message: 'The request body is not valid JSON.', type: 'bad_request' });
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ message: 'The request body is too large.', type: 'too_large' });
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ message: 'Unsupported content type.', type: 'bad_request' });
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.status(fe.statusCode).send({ message: fe.message, type: 'bad_request' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: Messages.somethingWentWrong, type: 'server_error' });
  });
}
