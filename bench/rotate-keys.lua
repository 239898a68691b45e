-- wrk script: every request carries the next API key of the pool (round robin), so the load is spread
-- over many keys and no key's hourly limit is reached. Usage: wrk ... -s rotate-keys.lua URL -- KEYS_FILE
-- Prints one JSON line with the totals when the run ends.

local requests = {}
local at = 0
local threads = 0

-- Runs in the main state: threads start at different keys; each still goes round the whole pool.
function setup(thread)
  thread:set("offset", threads * 7919)
  threads = threads + 1
end

function init(args)
  local keys = {}
  for line in io.lines(args[1]) do
    if line ~= "" then keys[#keys + 1] = line end
  end
  if #keys == 0 then error("no keys in " .. tostring(args[1])) end
  for i, key in ipairs(keys) do
    requests[i] = wrk.format("GET", wrk.path, { ["Host"] = wrk.headers["Host"], ["Authorization"] = "Bearer " .. key })
  end
  at = (offset or 0) % #requests
end

function request()
  at = at % #requests + 1
  return requests[at]
end

function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"non2xx":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
