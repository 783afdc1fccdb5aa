"""What both game scripts (play.py, play_legio.py) share: the generated
code on the import path, the service's name, a failed promise as an
exception, an RPC expected to fail, the channel (TCP or Unix socket) and
the wait until the server answers SERVING on its health check."""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("XODUS_PY_GEN", os.path.join(HERE, "gen")))

import grpc  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402

SERVICE = "tabletop.v1.GameService"
SCHEMA_VERSION = 1  # state.proto: "Schema revision 1"
TYPE_PREFIX = "type.googleapis.com/"
STREAM_WAIT_SECONDS = 20


class Failure(Exception):
    """A promise of the .proto comments that the server broke."""


def check(cond, msg, *ctx):
    """Raises a Failure saying `msg` (and the context) unless `cond`."""
    if not cond:
        raise Failure(msg + ("" if not ctx else " [" + "; ".join(str(c) for c in ctx) + "]"))


def rpc_error(call, *args, **kwargs):
    """Runs an RPC expected to fail; returns (code, details)."""
    try:
        call(*args, **kwargs)
    except grpc.RpcError as err:
        return err.code(), err.details()
    return grpc.StatusCode.OK, ""


def code_of(call, *args, **kwargs):
    """Runs an RPC expected to fail; returns its status code."""
    return rpc_error(call, *args, **kwargs)[0]


def channel(server):
    """A channel to `server` (host:port, or unix:PATH). Over a Unix socket,
    gRPC's C core sends the socket's path as the HTTP/2 :authority, which
    the server's HTTP/2 layer refuses as malformed: name a plain host."""
    options = [("grpc.default_authority", "localhost")] if server.startswith("unix:") else []
    return grpc.insecure_channel(server, options=options)


def wait_serving(chan, seconds=30):
    """Waits until the service answers SERVING on its health check."""
    health = health_pb2_grpc.HealthStub(chan)
    deadline = time.monotonic() + seconds
    while True:
        try:
            r = health.Check(health_pb2.HealthCheckRequest(service=SERVICE), timeout=2)
            if r.status == health_pb2.HealthCheckResponse.SERVING:
                return
        except grpc.RpcError:
            pass
        if time.monotonic() > deadline:
            raise Failure("the server is not SERVING after %d s" % seconds)
        time.sleep(0.1)
