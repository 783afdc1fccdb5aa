#!/bin/sh
# Checks the load balancer configurations of docs/deploy/ for syntax:
# nginx.conf with `nginx -t` (through a throwaway wrapper that includes it
# inside `http { }`, logs and pid in a temp dir, no port bound), if nginx
# is installed; envoy.yaml as YAML with the fields the deployment relies
# on, if python3 has PyYAML (envoy itself is not packaged in Debian: run
# `envoy --mode validate -c docs/deploy/envoy.yaml` where it is).
# Prints "skipped" for a check it cannot run; exits non-zero if a check
# that ran failed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
status=0

if command -v nginx >/dev/null 2>&1; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    cat >"$tmp/wrapper.conf" <<EOF
pid $tmp/nginx.pid;
error_log $tmp/error.log;
events {}
http {
    access_log $tmp/access.log;
    client_body_temp_path $tmp/body;
    proxy_temp_path $tmp/proxy;
    fastcgi_temp_path $tmp/fastcgi;
    uwsgi_temp_path $tmp/uwsgi;
    scgi_temp_path $tmp/scgi;
    include $here/nginx.conf;
}
EOF
    if nginx -t -q -c "$tmp/wrapper.conf" -p "$tmp"; then
        echo "nginx.conf: ok ($(nginx -v 2>&1))"
    else
        echo "nginx.conf: FAILED"
        status=1
    fi
else
    echo "nginx.conf: skipped (nginx not installed; apt-get install nginx-light)"
fi

if command -v python3 >/dev/null 2>&1 && python3 -c 'import yaml' 2>/dev/null; then
    if python3 - "$here/envoy.yaml" <<'EOF'
import sys, yaml

with open(sys.argv[1]) as f:
    doc = yaml.safe_load(f)
res = doc["static_resources"]
clusters = {c["name"]: c for c in res["clusters"]}
nodes = clusters["xodus_nodes"]
endpoints = [
    e["endpoint"]["address"]["socket_address"]
    for group in nodes["load_assignment"]["endpoints"]
    for e in group["lb_endpoints"]
]
assert len(endpoints) == 3, endpoints
health = nodes["health_checks"][0]["grpc_health_check"]
assert health["service_name"] == "tabletop.v1.GameService", health
opts = nodes["typed_extension_protocol_options"]["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]
assert "http2_protocol_options" in opts["explicit_http_config"], opts
hcm = res["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
assert hcm["stream_idle_timeout"] in ("0s", "3600s"), hcm["stream_idle_timeout"]
for host in hcm["route_config"]["virtual_hosts"]:
    for route in host["routes"]:
        assert route["route"]["cluster"] in clusters, route
        assert route["route"]["timeout"] == "0s", route
EOF
    then
        echo "envoy.yaml: ok (YAML and its cluster, health check and timeouts; not checked by envoy itself)"
    else
        echo "envoy.yaml: FAILED"
        status=1
    fi
else
    echo "envoy.yaml: skipped (python3 with PyYAML not found)"
fi

exit $status
