/**
 * How deep a tool call's arguments may nest and still be read as a value. No real call comes near it;
 * deeper values overflow the recursive walks that follow reading (schema coercion, the JSON.stringify of
 * a reply body), so a call nested deeper is an unreadable one, reported rather than a 500. The prompted
 * lane's reader (tool-formats/shared/lenient-json.ts) and a Messages reply's `tool_use.input`
 * (routes/messages/fold-message.ts) hold to the same bound.
 */
export const deepestToolArguments = 200;
