// The TypeScript client of the game server, for browsers and Node:
// connect (gRPC-Web), create and claim (plain calls on the client, plus
// `claimSeat`), play (`play`: SubmitChoice with expected_seq), watch and
// resume (`watch`: StreamGame from the last seq, reopened after a drop,
// with the table talk from the last talk_seq), table talk (`say`,
// `signal`, `muteSeat`), advice on request (`askHint`, `hintRefusal`),
// errors by kind (`trouble`), and seats kept between runs (`SeatBook`).
// The generated messages are under "@xodus/client/gen/...".
export { connect, type ConnectOptions, type GameClient } from "./connect";
export { Code, ConnectError, errorCode, errorText, isCanceled, trouble, type Trouble } from "./errors";
export { askHint, hintRefusal, HINT_INTERVAL_MS, type HintRefusal } from "./hint";
export { claimSeat, credentials, play, type ChoicePick, type Seat } from "./seat";
export {
  audienceOf, checkTalk, muteSeat, retryAfterMs, say, signal, talkLength, TALK_MAX_CHARS,
  type Audience, type SayOptions,
} from "./talk";
export { MemoryStore, SeatBook, type KeyValueStore, type SavedSeat } from "./seats";
export { GameWatch, isFatal, watch, type WatchOptions } from "./watch";
