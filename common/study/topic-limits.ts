// How long a topic may be: the server's schemas refuse longer ones, and the browser's inputs stop there.

/** Characters in a topic (a session's, a mark's, a card's). */
export const TOPIC_MAX_CHARS = 200;
