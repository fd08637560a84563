-- wrk script for bench/load.ts: each request takes the next path of a list read
-- from the file named by WRK_PATHS (one path a line, optionally a tab and an ETag), so a run walks the whole
-- list again and again; at the end, one JSON line with the figures the bench
-- reports, its latency histogram included. No response() callback: it would
-- make wrk hand every response to Lua.
local paths = {}
for line in io.lines(os.getenv("WRK_PATHS")) do
  if line ~= "" then paths[#paths + 1] = line end
end
local requests = {}
local next = 0

-- Formatted per thread, once wrk has set the Host header from the URL. A line `path<TAB>etag` sends the ETag
-- as If-None-Match (a cache revalidating).
init = function(_)
  for i, line in ipairs(paths) do
    local p, etag = line:match("^([^\t]*)\t(.*)$")
    if p == nil then
      requests[i] = wrk.format("GET", line)
    else
      requests[i] = wrk.format("GET", p, { ["If-None-Match"] = etag })
    end
  end
end

request = function()
  next = next % #requests + 1
  return requests[next]
end

done = function(summary, latency, _)
  local e = summary.errors
  -- The latency histogram (each distinct value in microseconds, with its count), so that runs taken in slices
  -- (bench/run.ts alternates the service and the bare server) can be combined into one distribution.
  local histogram = {}
  for i = 1, #latency do
    local value, count = latency(i)
    histogram[#histogram + 1] = string.format("[%d,%d]", value, count)
  end
  io.write(string.format(
    '\n@@{"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"status_errors":%d,"socket_errors":%d,"histogram":[%s]}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout, table.concat(histogram, ",")))
end
