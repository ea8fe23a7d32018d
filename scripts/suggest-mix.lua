-- wrk script: POST /v1/suggest with a rotating mix of request bodies.
--
--   wrk -s scripts/suggest-mix.lua http://127.0.0.1:8080 -- BODIES_FILE
--
-- BODIES_FILE holds one JSON request body per line. Every thread cycles
-- through them (each starting at a different one). Responses are counted by
-- HTTP status, and at the end one machine-readable line is printed:
--   wrk-summary {"requests":..,"connect_errors":..,...,"statuses":{"200":..}}

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  local path = args[1]
  if not path then
    error("usage: wrk -s suggest-mix.lua URL -- BODIES_FILE")
  end
  reqs = {}
  for line in io.lines(path) do
    if line:match("%S") then
      reqs[#reqs + 1] = wrk.format("POST", "/v1/suggest",
        { ["Content-Type"] = "application/json" }, line)
    end
  end
  if #reqs == 0 then
    error("no request bodies in " .. path)
  end
  counter = id or 0
  statuses = {}
end

function request()
  counter = counter + 1
  return reqs[counter % #reqs + 1]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local by_status = {}
  for _, t in ipairs(threads) do
    local s = t:get("statuses") or {}
    for k, v in pairs(s) do
      by_status[k] = (by_status[k] or 0) + v
    end
  end
  local parts = {}
  for k, v in pairs(by_status) do
    parts[#parts + 1] = string.format('"%d":%d', k, v)
  end
  local e = summary.errors
  io.write(string.format(
    'wrk-summary {"requests":%d,"duration_s":%.3f,"connect_errors":%d,' ..
    '"read_errors":%d,"write_errors":%d,"timeouts":%d,"non_2xx_3xx":%d,' ..
    '"p50_ms":%.2f,"p99_ms":%.2f,"max_ms":%.2f,"statuses":{%s}}\n',
    summary.requests, summary.duration / 1e6, e.connect, e.read, e.write,
    e.timeout, e.status, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    table.concat(parts, ",")))
end
