// Shared JSDoc types of the browser client, for `tsc --checkJs` (docs/WEB.md); no runtime code.
// The server's JSON (docs/PROTOCOL.md) is typed loosely where its shape is the server's to keep.

/** A JSON object as the server sent it (docs/PROTOCOL.md). @typedef {Record<string, any>} Json */

/** A websocket message from the server: its `type` and the fields of that type. @typedef {{type: string, [field: string]: any}} ServerMessage */

/** A websocket message to the server. @typedef {{type: string, [field: string]: unknown}} ClientMessage */

/** A rule set: the preset's slug and every option's value. @typedef {{preset: string, options: Json}} RulesInfo */

/** An action's JSON form (docs/PROTOCOL.md "act"). @typedef {{type: string, card?: string, target?: string[], hands?: string[], call?: boolean}} Action */

/**
 * What a table needs of its connection: whether a message sent now is delivered, how many
 * messages wait (animations shorten), and a way to send (the tutorial plays without a server).
 * @typedef {{open: boolean, backlog: number, send: (msg: ClientMessage) => unknown}} TableConnection
 */

export {};
