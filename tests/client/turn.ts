// A frontend's turn loop written against the types that openapi-typescript generates from
// openapi/openapi.json: if the document stops describing one call per turn (an answer's
// `after` sent back as the next request), this file stops type-checking.
import type { components, paths } from "./gen/kinrow";

type Schemas = components["schemas"];
type PlayRequest = Schemas["PlayRequest"];
type PlayResponse = Schemas["PlayResponse"];
type SuggestRequest = Schemas["SuggestRequest"];
type SuggestResponse = Schemas["SuggestResponse"];

// The body and answer types of the operations, as a fetch wrapper would use them.
type PlayBody = paths["/v1/play"]["post"]["requestBody"]["content"]["application/json"];
type PlayOk = paths["/v1/play"]["post"]["responses"]["200"]["content"]["application/json"];
type ErrorOk = paths["/v1/play"]["post"]["responses"]["422"]["content"]["application/json"];

/// The first turn: the player's move on the empty board, the engine's reply in the same call.
export const first: PlayBody = {
  rules: { m: 15, n: 15, k: 5 },
  move: { row: 7, col: 7 },
  reply: { name: "minimax", depth: 4, seed: 1 },
  include: ["move", "evaluation", "after"],
};

/// Every later turn: the previous answer's `after` as it is, plus the player's move.
export function nextTurn(prev: PlayOk, row: number, col: number): PlayRequest {
  return { ...prev.after, move: { row, col, piece: "mark" }, reply: "threat" };
}

/// An engine against itself: a suggestion's `after` is the next suggestion's request.
export function selfPlay(prev: SuggestResponse): SuggestRequest | null {
  if (prev.after === undefined || prev.after.status !== "in_progress") return null;
  return { ...prev.after, engine: "auto", include: ["move", "after"] };
}

/// The three board notations.
export const boards: SuggestRequest[] = [
  { rules: { m: 3, n: 3, k: 3 }, board: ["x..", ".o.", "..."] },
  { rules: { m: 3, n: 3, k: 3 }, board: [["x", ".", "."], [".", "o", "."], [".", ".", "."]] },
  { rules: { m: 3, n: 3, k: 3 }, board: "x../.o./...", to_move: "x" },
];

/// What a frontend reads from an answer.
export function describe(answer: PlayResponse, error?: ErrorOk): string {
  if (error) return `${error.error.code}: ${error.error.message} (${error.error.field ?? "-"})`;
  const reply = answer.reply?.move;
  const line = answer.after.winning_line?.map((c) => `${c.row},${c.col}`).join(" ") ?? "";
  return `${answer.move.row},${answer.move.col} -> ${reply ? `${reply.row},${reply.col}` : "-"}; ${answer.after.status} ${line}`;
}
