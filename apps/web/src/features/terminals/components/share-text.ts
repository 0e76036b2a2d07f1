/** A share's content that is one http(s) link (sent as text/x-uri, shown as a link). */
export const isLink = (text: string): boolean => /^https?:\/\/\S+$/i.test(text.trim());
