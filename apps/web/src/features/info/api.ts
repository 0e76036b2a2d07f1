/** The info pages' calls of /v1, typed by the generated client. */
import { unwrap, v1 } from '../../shared/api';

export const sendContactMessage = (name: string, email: string, question: string) =>
  unwrap(v1.POST('/v1/contact', { body: { name, email, question } }));
