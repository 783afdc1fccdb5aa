"""Table talk and hints from Python, written from the .proto alone: seats
say lines and signals with Say, hear them on StreamGame (talk=true) in
order and only when addressed to them, mute a seat, read the talk back with
GetHistory, and get a clear error for a line the server refuses; then,
with an AI agent started from --ai, a seat asks for a hint (AskHint) and
gets the best of its own options, with reasons.

Usage: talk.py --server HOST:PORT (or unix:PATH) [--ai PATH/TO/xodus-ai]
"""

import argparse
import queue
import subprocess
import sys
import threading
import time

from common import (  # noqa: E402 (common puts the generated code on the path)
    STREAM_WAIT_SECONDS, Failure, channel, check, rpc_error, wait_serving)

import grpc  # noqa: E402
from tabletop.v1 import game_pb2 as tt  # noqa: E402
from tabletop.v1 import service_pb2 as svc  # noqa: E402
from tabletop.v1 import service_pb2_grpc as svc_grpc  # noqa: E402
from xodus.v1 import setup_pb2, state_pb2  # noqa: E402
from xodus.v1 import talk_pb2 as xtalk  # noqa: E402


def creds(tokens, seat):
    return tt.SeatCredentials(seat=seat, token=tokens[seat])


def listen(stub, game_id, tokens, seat, out):
    """Follows the game's talk as `seat` (None: a spectator) into `out`."""
    req = svc.StreamGameRequest(game_id=game_id, talk=True)
    if seat is not None:
        req.credentials.CopyFrom(creds(tokens, seat))
    stream = stub.StreamGame(req, timeout=STREAM_WAIT_SECONDS)

    def run():
        try:
            for m in stream:
                for line in m.talk:
                    out.put(line)
        except grpc.RpcError:
            pass

    threading.Thread(target=run, daemon=True).start()
    return stream


def heard_until(out, last_text):
    """The texts heard until one reads `last_text`."""
    texts = []
    while True:
        line = out.get(timeout=STREAM_WAIT_SECONDS)
        texts.append(line.text or line.signal_words)
        if line.text == last_text:
            return texts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--ai", help="the xodus-ai binary, to check hints")
    args = ap.parse_args()
    chan = channel(args.server)
    wait_serving(chan)
    stub = svc_grpc.GameServiceStub(chan)

    setup = setup_pb2.XodusSetup(ship_count=3, difficulty="casual", seed=77)
    req = svc.CreateGameRequest(game_type="xodus", seats=[tt.SEAT_OPEN_TO_ANY] * 3)
    req.game_setup.Pack(setup)
    game_id = stub.CreateGame(req).game.game_id
    tokens = [stub.ClaimSeat(svc.ClaimSeatRequest(game_id=game_id, seat=s, claimant=tt.CLAIMANT_HUMAN)).token
              for s in range(3)]

    seat1, seat2, stranger = queue.Queue(), queue.Queue(), queue.Queue()
    streams = [listen(stub, game_id, tokens, 1, seat1), listen(stub, game_id, tokens, 2, seat2),
               listen(stub, game_id, tokens, None, stranger)]

    def say(seat, text="", audience=tt.TALK_AUDIENCE_TABLE, to_seat=None, signal=None):
        r = svc.SayRequest(game_id=game_id, credentials=creds(tokens, seat), audience=audience, text=text)
        if to_seat is not None:
            r.to_seat = to_seat
        if signal is not None:
            r.signal.Pack(signal)
        return stub.Say(r)

    markup = "<b>hello</b> & <script>x</script>"
    line = say(0, markup).line
    check(line.talk_seq == 1 and line.speaker == 0 and not line.speaker_ai, "the line as kept", line)
    check(line.text == markup, "text is kept as it was said, never rewritten", line.text)
    wait = xtalk.XodusSignal(kind=xtalk.XODUS_SIGNAL_KIND_WAIT_FOR_ME, system=state_pb2.Hex(q=0, r=0))
    line = say(0, signal=wait).line
    check(line.signal_words.startswith("wait for me at ") and line.signal_words.endswith("(0,0)"),
          "a signal comes with the server's words", line.signal_words)
    back = xtalk.XodusSignal()
    check(line.signal.Unpack(back) and back == wait, "and with itself, typed", line.signal)
    say(0, "only for seat 1", audience=tt.TALK_AUDIENCE_SEAT, to_seat=1)
    say(0, "for the crew", audience=tt.TALK_AUDIENCE_TEAM)
    say(2, "end")

    h1 = heard_until(seat1, "end")
    check(h1 == [markup, line.signal_words, "only for seat 1", "for the crew", "end"], "seat 1 hears", h1)
    h2 = heard_until(seat2, "end")
    check(h2 == [markup, line.signal_words, "for the crew", "end"], "seat 2 never hears what is said to seat 1", h2)
    hs = heard_until(stranger, "end")
    check(hs == [markup, line.signal_words, "end"], "a spectator hears the whole table only", hs)

    cases = [
        (dict(seat=1, text="x" * 281), grpc.StatusCode.INVALID_ARGUMENT, "280"),
        (dict(seat=1, text="a\nb"), grpc.StatusCode.INVALID_ARGUMENT, "control character"),
        (dict(seat=1, text=""), grpc.StatusCode.INVALID_ARGUMENT, "nothing to say"),
        (dict(seat=1, text="to whom?", audience=tt.TALK_AUDIENCE_SEAT), grpc.StatusCode.INVALID_ARGUMENT, "to_seat"),
    ]
    for kw, code, words in cases:
        got, details = rpc_error(say, **kw)
        check(got == code and words in details, "a refused line says what was wrong", kw, got, details)

    muted = stub.MuteSeat(svc.MuteSeatRequest(game_id=game_id, credentials=creds(tokens, 1), seat=2, muted=True))
    check(list(muted.muted) == [2], "MuteSeat answers the muted seats", muted)
    say(2, "noise")
    say(0, "after the mute")
    h1 = heard_until(seat1, "after the mute")
    check(h1 == ["after the mute"], "a muted seat is not heard", h1)

    hist = stub.GetHistory(svc.GetHistoryRequest(game_id=game_id, credentials=creds(tokens, 2)))
    check([t.talk_seq for t in hist.talk] == [1, 2, 4, 5, 6, 7], "GetHistory keeps the talk seat 2 hears",
          [t.talk_seq for t in hist.talk])
    for s in streams:
        s.cancel()
    print("python talk: ok (lines, signals, audiences, refusals, mutes, history)")
    if args.ai:
        hints(stub, args.server, args.ai, game_id, tokens)


def hints(stub, server, ai, game_id, tokens):
    """AskHint with an agent serving hints: the best of the seat's own
    options, best first, with reasons; too soon again is refused."""
    state = stub.GetView(svc.GetViewRequest(game_id=game_id, credentials=creds(tokens, 0))).state
    seat = state.decision.deciders[0]
    code, details = rpc_error(stub.AskHint, svc.AskHintRequest(game_id=game_id, credentials=creds(tokens, seat)))
    check(code == grpc.StatusCode.FAILED_PRECONDITION and "no AI agent" in details, "no agent yet", code, details)
    target = server if server.startswith("unix:") else "http://" + server
    agent = subprocess.Popen([ai, "--server", target, "--fill", "--policy", "heuristic", "--think-ms", "50"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + STREAM_WAIT_SECONDS * 3
        while True:
            try:
                hint = stub.AskHint(svc.AskHintRequest(game_id=game_id, credentials=creds(tokens, seat)))
                break
            except grpc.RpcError as err:
                check(time.monotonic() < deadline, "the agent serves hints", err.code(), err.details())
                time.sleep(2.1)
        mine = {o.id: o.label for o in state.decision.options if seat in o.seats}
        ids = [o.option_id for o in hint.options]
        check(1 <= len(ids) <= 3 and all(i in mine for i in ids), "the seat's own options", ids)
        check(all(o.label == mine[o.option_id] and o.reason for o in hint.options), "labels and reasons", hint)
        est = [o.estimate for o in hint.options]
        check(est == sorted(est, reverse=True), "best first", est)
        code, details = rpc_error(stub.AskHint, svc.AskHintRequest(game_id=game_id, credentials=creds(tokens, seat)))
        check(code == grpc.StatusCode.RESOURCE_EXHAUSTED and "retry in" in details, "too soon", code, details)
    finally:
        agent.terminate()
        agent.wait(timeout=10)
    print("python hints: ok (%d options, the agent thought %d ms)" % (len(hint.options), hint.think_ms))


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print("python talk: FAILED: %s" % e, file=sys.stderr)
        sys.exit(1)
