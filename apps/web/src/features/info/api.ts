/** The info pages' calls of /v1, typed by the generated client. */
import { anonymous, unwrap } from '../../shared/api';

export const sendContactMessage = (name: string, email: string, question: string) =>
  unwrap(anonymous.POST('/v1/contact', { body: { name, email, question } }));
