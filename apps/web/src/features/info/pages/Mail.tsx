import { SUPPORT_EMAIL } from '../../../routes/paths';

/** The support address as a mail link, for the info pages. */
export const Mail = () => <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>;
